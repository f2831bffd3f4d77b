# corpus: runnable
# Red team 31b, wave 2 (blind; GPU-only harm, a CPU run cannot show it): a regression loop over a
# pinned loader. After copying the batch to the device and queueing the step, a helper clips the
# host batch in place (`winsorize_(xb)`) before host-side statistics are taken from it. A
# `non_blocking=True` copy may still be reading the pinned batch when the helper writes it.
import argparse

import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def winsorize_(t, bound=1.5):
    t.clamp_(-bound, bound)
    return t


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=2)
    args = p.parse_args()
    torch.manual_seed(0)
    x = torch.randn(96, 6) * 2
    y = x[:, :2].sum(1, keepdim=True)
    loader = DataLoader(TensorDataset(x, y), batch_size=16, num_workers=2, pin_memory=True)
    model = nn.Linear(6, 1).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    clipped_means = []
    for epoch in range(args.epochs):
        total = 0.0
        for xb, yb in loader:
            x_dev = xb.to(device)
            y_dev = yb.to(device)
            loss = F.mse_loss(model(x_dev), y_dev)
            opt.zero_grad()
            loss.backward()
            opt.step()
            winsorize_(xb)
            clipped_means.append(round(xb.mean().item(), 5))
            total += loss.item()
        print(f"epoch {epoch} loss {total / len(loader):.6f}")
    print("clipped means", clipped_means[:6])


if __name__ == "__main__":
    main()
