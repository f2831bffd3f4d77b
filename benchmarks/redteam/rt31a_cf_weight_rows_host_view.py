# corpus: runnable
# Red team 31a, wave 1 (blind): max-norm regularisation (Srivastava et al.) done on the host. The
# first layer's weight is fetched once as a NumPy array (`.detach().cpu().numpy()`); each step the
# row norms are computed with NumPy and rows longer than MAX_NORM are scaled back after the update.
import argparse

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
MAX_NORM = 0.9


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--bs", type=int, default=32)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x = torch.randn(256, 10)
    y = (x @ torch.linspace(-1, 1, 10) > 0).long()
    model = nn.Sequential(nn.Linear(10, 24), nn.ReLU(), nn.Linear(24, 2)).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    first = model[0].weight.detach().cpu().numpy()
    clipped = 0
    for epoch in range(args.epochs):
        for i in range(0, len(x), args.bs):
            xb, yb = x[i:i + args.bs].to(device), y[i:i + args.bs].to(device)
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            norms = np.linalg.norm(first, axis=1)
            scale = np.minimum(1.0, MAX_NORM / np.maximum(norms, 1e-12))
            clipped += int((scale < 1.0).sum())
            with torch.no_grad():
                model[0].weight.mul_(torch.as_tensor(scale, dtype=torch.float32, device=device)[:, None])
        w = model[0].weight.detach()
        print(f"epoch {epoch} loss {loss.item():.6f} max row norm {w.norm(dim=1).max().item():.6f} clipped {clipped}")


if __name__ == "__main__":
    main()
