# corpus: runnable
"""Feature table kept in a memory-mapped file that a writer refreshes every epoch (two maps, one file)."""
import os
import tempfile

import numpy as np
import torch

torch.manual_seed(0)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

path = os.path.join(tempfile.mkdtemp(), "features.f32")
writer = np.memmap(path, dtype=np.float32, mode="w+", shape=(8, 4))
writer[:] = np.arange(32, dtype=np.float32).reshape(8, 4) / 10.0
writer.flush()
reader = np.memmap(path, dtype=np.float32, mode="r", shape=(8, 4))

w = torch.zeros(4, 1, device=device, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.01)
targets = torch.linspace(0, 1, 8).unsqueeze(1).to(device)
for epoch in range(3):
    writer[:] = writer * 0.5 + epoch
    writer.flush()
    feats = torch.tensor(reader[:8], dtype=torch.float32).to(device)
    center = np.mean(reader, axis=0)
    scale = torch.from_numpy(np.std(reader, axis=0) + 1e-3).to(device)
    x = (feats - torch.from_numpy(center).to(device)) / scale
    loss = ((x @ w - targets) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(epoch, "center", np.round(center, 6).tolist(), "loss %.10f" % loss.item())

shared = torch.from_file(path, shared=True, size=32, dtype=torch.float32).view(8, 4)
view2 = torch.from_file(path, shared=True, size=32, dtype=torch.float32).view(8, 4)
totals = []
for step in range(3):
    shared.mul_(0.9)
    snap = torch.tensor(view2.tolist()).to(device)
    totals.append(float(snap.sum()))
print("totals", ["%.8f" % v for v in totals])
pool = torch.arange(6, dtype=torch.float32).share_memory_()
acc = []
for step in range(3):
    pool.add_(1)
    acc.append(torch.tensor(pool.numpy()).to(device).sum().item())
print("pool", acc)
