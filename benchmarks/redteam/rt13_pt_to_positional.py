# corpus: runnable
# `.to()` calls whose arguments already say `non_blocking` or `copy` by position or through a
# dict: `x.to(device, torch.float32, False)`, `x.to(device, None, False, True)`, `x.to(*spec)`,
# `x.to(**spec)`, `x.to(other)` with `other` a float64 tensor.
import torch
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = torch.nn.Linear(2, 1).to(device)
ds = TensorDataset(torch.arange(12, dtype=torch.float32).reshape(6, 2), torch.arange(6))
loader = DataLoader(ds, batch_size=3)
spec = (device, torch.float32, False)
kw = {"device": device, "non_blocking": False}
ref = torch.zeros(1, dtype=torch.float64, device=device)
res = []
for xb, yb in loader:
    a = xb.to(device, torch.float32, False)
    b = xb.to(*spec)
    c = xb.to(**kw)
    d = xb.to(ref)
    e = xb.to(device, copy=True)
    e.add_(1)
    res.append([round(model(v.float()).sum().item(), 4) for v in (a, b, c, d)] + [str(d.dtype), xb.sum().item()])
print(res)
