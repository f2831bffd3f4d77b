# corpus: runnable
# Red team 33 (blind): evaluation prints the mean logits per batch through an f-string whose
# field carries a format spec (an empty one, as an editor's template left it).
import argparse

import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--bs", type=int, default=30)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x = torch.randn(120, 4)
    y = (x[:, 0] > 0).long()
    model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 2)).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(args.epochs):
        model.train()
        for i in range(0, 120, args.bs):
            loss = F.cross_entropy(model(x[i:i + args.bs].to(device)), y[i:i + args.bs].to(device))
            opt.zero_grad()
            loss.backward()
            opt.step()
    model.eval()
    for i in range(0, 120, args.bs):
        out = model(x[i:i + args.bs].to(device))
        print(f"batch {i // args.bs} mean logits {out.mean(0):}")


if __name__ == "__main__":
    main()
