# corpus: runnable
# Red team 24: arrays bound before the loop to views made by names outside the view tables:
# `astype(copy=False)` / `np.astype(copy=False)` / `np.array(copy=False)`, NumPy 2's
# `np.permute_dims` / `np.matrix_transpose` / `np.unstack`, `np.diag`, `np.trim_zeros`,
# `np.require`, `np.asmatrix`, `np.broadcast_arrays`, unbound `np.ndarray.view` / `.reshape`, a
# `nn.Parameter` wrapping a tensor, `torch.unsafe_split`; the loop changes the base array in place
import numpy as np
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(24)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(3, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
moments = np.arange(6.0).reshape(2, 3)
as_f64 = moments.astype(np.float64, copy=False)
cols = np.permute_dims(moments)
cols_t = np.matrix_transpose(moments)
first_row = np.unstack(moments)[0]
trimmed = np.trim_zeros(moments[0])
both = np.broadcast_arrays(moments, moments)[0]
req = np.require(moments)
mat = np.asmatrix(moments)
diag = np.diag(moments)
view = np.ndarray.view(moments)
flat = np.ndarray.reshape(moments, -1)
same = np.array(moments, copy=False)
same2 = np.astype(moments, np.float64, copy=False)
base = torch.zeros(3)
param = nn.Parameter(base)
chunks = torch.zeros(3)
piece = torch.unsafe_split(chunks, 1)[0]
log = []
for step in range(3):
    x = torch.randn(4, 3, device=device)
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    moments += loss.item()
    base.add_(1.0)
    chunks.add_(1.0)
    s1 = np.sqrt(as_f64)
    s2 = np.sqrt(cols)
    s3 = np.sqrt(cols_t)
    s4 = np.sqrt(first_row)
    s5 = np.sqrt(trimmed)
    s6 = np.sqrt(both)
    s7 = np.sqrt(req)
    s8 = np.sqrt(mat)
    s9 = np.sqrt(diag)
    s10 = np.sqrt(view)
    s11 = np.sqrt(flat)
    s12 = np.sqrt(same)
    s13 = np.sqrt(same2)
    p1 = np.sqrt(param.detach().numpy())
    p2 = torch.tensor(param.detach().numpy().sum())
    p3 = np.sqrt(piece.numpy())
    log.append([round(float(np.asarray(v).sum()), 4) for v in (s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13,
                                                               p1, p2, p3)])
print("views", log)
