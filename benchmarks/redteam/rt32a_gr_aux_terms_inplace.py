# corpus: runnable
# Red team 32a, wave 1 (blind): a mixture-of-experts style classifier with a load-balancing
# auxiliary loss. Each step routes the batch through the gate a few times (micro-batches that share
# one optimizer step); the per-micro-batch balance terms are summed and added to the main loss in
# place (`loss.add_(...)`, as some repos do to save a temporary) before the single backward.
import argparse

import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)


class MoE(nn.Module):
    def __init__(self, d=8, k=3):
        super().__init__()
        self.gate = nn.Linear(d, k)
        self.experts = nn.ModuleList(nn.Linear(d, 2) for _ in range(k))

    def forward(self, x):
        g = self.gate(x).softmax(1)
        out = sum(g[:, i:i + 1] * e(x) for i, e in enumerate(self.experts))
        return out, g


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=12)
    p.add_argument("--micro", type=int, default=4)
    p.add_argument("--aux", type=float, default=2.0)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x = torch.randn(96, 8)
    y = (x[:, 1] * x[:, 2] > 0).long()
    model = MoE().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.2)
    for step in range(args.steps):
        idx = torch.randperm(len(x))[:64]
        opt.zero_grad()
        task_loss = torch.zeros((), device=device)
        balance = 0.0
        for part in idx.chunk(args.micro):
            xb, yb = x[part].to(device), y[part].to(device)
            logits, g = model(xb)
            task_loss = task_loss + F.cross_entropy(logits, yb) / args.micro
            balance += (g.mean(0) * g.size(1)).pow(2).sum() / args.micro
        total = task_loss.clone()
        total.add_(balance, alpha=args.aux)
        total.backward()
        opt.step()
        print(f"step {step} task {task_loss.item():.6f} balance {float(balance):.6f} total {total.item():.6f}")
    print("gate", [round(v, 5) for v in model.gate.weight.flatten().tolist()[:6]])


if __name__ == "__main__":
    main()
