# corpus: runnable
# Host tensors moved with `.to(device)` right after being built, where the built tensor shares
# memory with a NumPy buffer the loop keeps changing (`torch.from_numpy`, `torch.as_tensor`,
# `torch.asarray`), a moved integer range, and `torch.tensor(np_array)` (a copy: near-miss).
import numpy as np
import torch

torch.manual_seed(0)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"
frame = np.zeros(4, dtype=np.float32)
hist = []
for step in range(3):
    obs = torch.from_numpy(frame).to(device)
    obs2 = torch.as_tensor(frame).to(device)
    obs3 = torch.asarray(frame).to(device)
    copied = torch.tensor(frame).to(device)
    frame += 1.0
    hist.append((obs.sum().item(), obs2.sum().item(), obs3.sum().item(), copied.sum().item()))
print(hist)
idx = torch.arange(4).to(device)
full = torch.full((2,), 3).to(device)
print(idx.dtype, full.dtype, idx.tolist(), full.tolist())
