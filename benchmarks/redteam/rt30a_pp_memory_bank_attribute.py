# corpus: runnable
# Red team 30a, wave 1 (blind): instance discrimination with a memory bank (Wu et al. 2018 style).
# `MemoryBank` is a plain object: its `bank` tensor is rewritten in place by `update()`. The trainer
# keeps a host snapshot of the bank rows it is about to update (`torch.tensor(self.bank[idx].cpu()
# .numpy())` in the original script) to measure how much each update moved them.
import argparse

import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"


class MemoryBank:
    def __init__(self, n, dim, momentum):
        self.bank = F.normalize(torch.randn(n, dim, generator=torch.Generator().manual_seed(3)), dim=1).to(device)
        self.momentum = momentum

    def update(self, idx, feats):
        rows = self.bank.index_select(0, idx)
        rows.mul_(self.momentum).add_(feats.detach() * (1 - self.momentum))
        self.bank.index_copy_(0, idx, F.normalize(rows, dim=1))


class Trainer:
    def __init__(self, args):
        torch.manual_seed(args.seed)
        self.net = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 16)).to(device)
        self.opt = torch.optim.SGD(self.net.parameters(), lr=0.1)
        self.memory = MemoryBank(256, 16, args.momentum)
        self.temperature = args.t
        self.moves = []

    def step(self, xb, idx):
        feats = F.normalize(self.net(xb), dim=1)
        old = torch.tensor(self.memory.bank.cpu().numpy())
        logits = feats @ self.memory.bank.t() / self.temperature
        loss = F.cross_entropy(logits, idx)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.memory.update(idx, feats)
        self.moves.append((self.memory.bank.cpu() - old).abs().sum().item())
        return loss.item()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--bs", type=int, default=32)
    p.add_argument("--momentum", type=float, default=0.5)
    p.add_argument("--t", type=float, default=0.1)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    gen = torch.Generator().manual_seed(args.seed)
    data = torch.randn(256, 10, generator=gen)
    trainer = Trainer(args)
    for epoch in range(args.epochs):
        order = torch.randperm(256, generator=gen)
        for i in range(0, 256, args.bs):
            idx = order[i:i + args.bs]
            loss = trainer.step(data[idx].to(device), idx.to(device))
        print(f"epoch {epoch} loss {loss:.5f} moved {sum(trainer.moves[-8:]):.5f}")
    print("bank checksum", round(trainer.memory.bank.sum().item(), 5), round(sum(trainer.moves), 5))


if __name__ == "__main__":
    main()
