# corpus: runnable
# Pinned batches copied with `non_blocking=True` while the host batch is still changed afterwards
# through another name, a helper that writes into its argument, a NumPy view, or a dict entry;
# and a collate_fn that already moves the batch to the device (pinning a CUDA tensor raises).
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
net = nn.Linear(4, 1).to(device)
data = TensorDataset(torch.randn(12, 4), torch.randn(12))


def scrub_(t):
    t.clamp_(min=0.0)
    return t


loader = DataLoader(data, batch_size=4)
out = []
for x, y in loader:
    xd = x.to(device)  # paef: refuse pageable-transfer
    alias = x
    alias.mul_(0.0)
    scrub_(y)
    yd = y.to(device)
    x.numpy()[:] = 1.0
    out.append(round(net(xd).sum().item() + yd.sum().item(), 4))
print(out)

loader2 = DataLoader(data, batch_size=4, collate_fn=lambda b: tuple(torch.stack(t).to(device) for t in zip(*b)))  # paef: refuse pageable-transfer
tot = 0.0
for x, y in loader2:
    tot += net(x.to(device)).sum().item()
print(round(tot, 4))


def to_device(batch):
    return tuple(t.to(device) for t in batch)


loader3 = DataLoader(data, batch_size=6, collate_fn=lambda b: to_device(torch.utils.data.default_collate(b)))  # paef: refuse pageable-transfer
for x, y in loader3:
    print(x.to(device).shape)

samples = [{"x": np.ones(4, dtype=np.float32) * i, "y": i} for i in range(6)]
loader4 = DataLoader(samples, batch_size=3)
for batch in loader4:
    xb = batch["x"].to(device)
    batch["x"].zero_()
    print(xb.sum().item(), batch["x"].sum().item())
