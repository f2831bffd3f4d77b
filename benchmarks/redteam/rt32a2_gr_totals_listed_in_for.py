# corpus: runnable
# Red team 32a, wave 2 (blind): a training loop that sums the batch loss and an entropy bonus over
# each epoch (as tensors, the usual `running += loss` of many repos) and prints both at the end of
# the epoch, looping over (name, value) pairs.
import argparse

import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x = torch.randn(80, 6)
    y = (x[:, 1] > 0).long()
    model = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 2)).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(args.epochs):
        running = 0.0
        bonus = 0.0
        for i in range(0, 80, 20):
            xb, yb = x[i:i + 20].to(device), y[i:i + 20].to(device)
            logits = model(xb)
            loss = F.cross_entropy(logits, yb)
            ent = -(logits.softmax(1) * logits.log_softmax(1)).sum(1).mean()
            opt.zero_grad()
            (loss - 0.01 * ent).backward()
            opt.step()
            running += loss
            bonus += ent
        for name, value in (("loss", running / 4), ("entropy", bonus / 4)):
            print("epoch", epoch, name, value)


if __name__ == "__main__":
    main()
