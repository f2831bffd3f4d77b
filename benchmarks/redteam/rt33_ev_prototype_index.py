# corpus: runnable
# Red team 33 (blind): a classifier trained jointly with learnable class prototypes (a center
# loss). At evaluation, the prototype of each predicted class is looked up and the first few are
# printed for inspection next to the predictions.
import argparse

import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--bs", type=int, default=20)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x = torch.randn(120, 5)
    y = (x[:, 1] + x[:, 2] > 0).long()
    model = nn.Sequential(nn.Linear(5, 8), nn.ReLU(), nn.Linear(8, 2)).to(device)
    prototypes = torch.zeros(2, 2, device=device, requires_grad=True)
    opt = torch.optim.Adam(list(model.parameters()) + [prototypes], lr=1e-2)
    for epoch in range(args.epochs):
        model.train()
        for i in range(0, 120, args.bs):
            xb, yb = x[i:i + args.bs].to(device), y[i:i + args.bs].to(device)
            out = model(xb)
            loss = F.cross_entropy(out, yb) + 0.1 * (out - prototypes[yb]).pow(2).sum(1).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
    model.eval()
    for i in range(0, 40, args.bs):
        out = model(x[i:i + args.bs].to(device))
        pred = out.argmax(1)
        print("pred", pred[:3].tolist())
        print("their prototypes", prototypes[pred][:3])


if __name__ == "__main__":
    main()
