# corpus: runnable
# Red team 33 (blind): evaluation collects predicted probabilities as NumPy arrays for a
# calibration histogram. The conversion is written defensively: it tries the zero-copy `.numpy()`
# and falls back to `.detach().numpy()` when torch refuses, counting how often it had to.
import argparse

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--bs", type=int, default=25)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x = torch.randn(200, 6)
    y = (x[:, 0] - x[:, 3] > 0).long()
    model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 2)).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(args.epochs):
        model.train()
        for i in range(0, 200, args.bs):
            loss = F.cross_entropy(model(x[i:i + args.bs].to(device)), y[i:i + args.bs].to(device))
            opt.zero_grad()
            loss.backward()
            opt.step()
    model.eval()
    chunks, slow_path = [], 0
    for i in range(0, 200, args.bs):
        probs = model(x[i:i + args.bs].to(device)).softmax(1)[:, 1].cpu()
        try:
            arr = probs.numpy()
        except RuntimeError:
            slow_path += 1
            arr = probs.detach().numpy()
        chunks.append(arr)
    conf = np.concatenate(chunks)
    hist, _ = np.histogram(conf, bins=5, range=(0.0, 1.0))
    print("confidence histogram:", hist.tolist())
    print("batches that needed a detached copy:", slow_path)


if __name__ == "__main__":
    main()
