# corpus: runnable
# Red team 30a, wave 2 (blind): inverse-frequency class weights from an EMA of the label frequencies.
# The frequencies are kept in a NumPy array (logged and saved as NumPy); the EMA update goes through a
# torch view of that array made once with `torch.from_numpy` (shared memory), and the loop builds the
# loss weights from the array with `torch.tensor`.
import argparse

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
CLASSES = 3


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--bs", type=int, default=32)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    gen = torch.Generator().manual_seed(args.seed)
    x = torch.randn(384, 5, generator=gen)
    y = torch.where(x[:, 0] > 1.0, 2, (x[:, 1] > 0.3).long())
    torch.manual_seed(args.seed)
    model = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, CLASSES))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    freq = np.full(CLASSES, 1.0 / CLASSES, dtype=np.float32)
    freq_t = torch.from_numpy(freq)
    for epoch in range(args.epochs):
        for i in range(0, len(x), args.bs):
            xb, yb = x[i:i + args.bs], y[i:i + args.bs]
            weight = torch.tensor(freq)
            loss = F.cross_entropy(model(xb), yb, weight=1.0 / (weight * CLASSES))
            opt.zero_grad()
            loss.backward()
            opt.step()
            batch_freq = torch.bincount(yb, minlength=CLASSES).float() / len(yb)
            freq_t.mul_(0.9).add_(0.1 * batch_freq)
        print(f"epoch {epoch} loss {loss.item():.6f} freq {np.round(freq, 4).tolist()}")


if __name__ == "__main__":
    main()
