# corpus: runnable
# Host factories filled by stores that read the host tensor itself, or a NumPy array sharing its
# memory, before the move to the device.
import numpy as np
import torch

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
out = []
for step in range(3):
    t = torch.zeros(5)
    arr = t.numpy()
    arr[step] = 7.0
    t = t.to(device)
    out.append(t.tolist())
    idx = torch.arange(6)
    idx[idx > 3] = 0
    idx = idx.to(device)
    out.append(idx.tolist())
    m = torch.ones(3, 3)
    m.fill_diagonal_(float(step))
    m = m.to(device)
    out.append(m.sum().item())
print(out)
