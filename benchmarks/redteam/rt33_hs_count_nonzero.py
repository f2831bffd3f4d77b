# corpus: runnable
# Red team 33 (blind): evaluation counts correct predictions with `torch.count_nonzero` and the
# batches where any prediction flipped relative to a reference model, then prints the raw counts.
import argparse

import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--bs", type=int, default=20)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x = torch.randn(160, 5)
    y = (x[:, 0] + 0.5 * x[:, 1] > 0).long()
    ref = nn.Linear(5, 2).to(device)
    model = nn.Sequential(nn.Linear(5, 12), nn.ReLU(), nn.Linear(12, 2)).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for i in range(0, 160, args.bs):
        loss = F.cross_entropy(model(x[i:i + args.bs].to(device)), y[i:i + args.bs].to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
    correct = 0
    flipped = 0
    with torch.no_grad():
        for i in range(0, 160, args.bs):
            xb, yb = x[i:i + args.bs].to(device), y[i:i + args.bs].to(device)
            pred = model(xb).argmax(1)
            correct += torch.count_nonzero(pred == yb).item()
            flipped += (pred != ref(xb).argmax(1)).any().item()
    print("correct:", correct)
    print("batches with a flip:", flipped)


if __name__ == "__main__":
    main()
