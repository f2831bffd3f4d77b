# corpus: runnable
# Red team 31a, wave 2 (blind, re-aimed after wave 1): percentile activation clipping. A calibration object registers its
# `observe` method as a forward hook and accumulates a NumPy histogram of the hidden activations
# on every forward; the training step reads the 99th percentile of what was seen so far (NumPy on
# the histogram) and clips the hidden layer there before the head.
import argparse

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
EDGES = np.linspace(0.0, 4.0, 41)


class Calibrator:
    def __init__(self):
        self.hist = np.zeros(len(EDGES) - 1)

    def observe(self, module, inputs, output):
        counts, _ = np.histogram(output.detach().cpu().numpy(), bins=EDGES)
        self.hist += counts


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--bs", type=int, default=32)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x = torch.randn(256, 8)
    y = (x[:, :3].sum(1) > 0.2).long()
    body = nn.Sequential(nn.Linear(8, 32), nn.ReLU()).to(device)
    head = nn.Linear(32, 2).to(device)
    opt = torch.optim.SGD([*body.parameters(), *head.parameters()], lr=0.1)
    calib = Calibrator()
    body.register_forward_hook(calib.observe)
    for epoch in range(3):
        for i in range(0, 256, 32):
            xb, yb = x[i:i + 32].to(device), y[i:i + 32].to(device)
            h = body(xb)
            cdf = np.cumsum(calib.hist)
            k = int(np.searchsorted(cdf, 0.99 * cdf[-1]))
            clip = float(EDGES[min(k + 1, len(EDGES) - 1)])
            loss = F.cross_entropy(head(h.clamp(max=clip)), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.6f} clip {clip:.2f} seen {int(calib.hist.sum())}")


if __name__ == "__main__":
    main()
