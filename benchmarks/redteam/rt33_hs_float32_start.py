# corpus: runnable
# Red team 33 (blind): the running loss is kept as a NumPy float32 (to match the float32 metrics
# file the logger writes) and printed in full precision at the end of each epoch.
import argparse

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--bs", type=int, default=8)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x = torch.randn(256, 6)
    y = x[:, :3].sum(1, keepdim=True) + 0.1 * torch.randn(256, 1)
    model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 1)).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.03)
    for epoch in range(args.epochs):
        running = np.float32(0.0)
        for i in range(0, 256, args.bs):
            loss = F.mse_loss(model(x[i:i + args.bs].to(device)), y[i:i + args.bs].to(device))
            opt.zero_grad()
            loss.backward()
            opt.step()
            running += loss.item()
        print(f"epoch {epoch} summed loss {float(running)!r}")


if __name__ == "__main__":
    main()
