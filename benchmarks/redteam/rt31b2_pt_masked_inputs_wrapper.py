# corpus: runnable
# Red team 31b, wave 2 (blind): padded sequences from a TensorDataset, wrapped in the loop into a
# small `Masked` object (values plus lengths, with a `to(device)` of its own) that the model takes.
import argparse

import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Masked:
    def __init__(self, values, lengths):
        self.values, self.lengths = values, lengths

    def to(self, device):
        return Masked(self.values.to(device), self.lengths.to(device))

    def mean(self):
        steps = torch.arange(self.values.size(1), device=self.values.device)
        mask = (steps[None, :] < self.lengths[:, None]).unsqueeze(-1)
        return (self.values * mask).sum(1) / self.lengths[:, None]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--workers", type=int, default=2)
    args = p.parse_args()
    torch.manual_seed(0)
    seqs = torch.randn(80, 9, 4)
    lengths = torch.randint(3, 10, (80,))
    target = seqs[:, 0, :1] * 2
    loader = DataLoader(TensorDataset(seqs, lengths, target), batch_size=16, num_workers=args.workers)
    head = nn.Linear(4, 1).to(device)
    opt = torch.optim.Adam(head.parameters(), lr=0.05)
    for epoch in range(2):
        total = 0.0
        for inputs, lens, yb in loader:
            inputs = Masked(inputs, lens)
            inputs = inputs.to(device)
            yb = yb.to(device)
            loss = F.mse_loss(head(inputs.mean()), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        print(f"epoch {epoch} loss {total / len(loader):.6f}")


if __name__ == "__main__":
    main()
