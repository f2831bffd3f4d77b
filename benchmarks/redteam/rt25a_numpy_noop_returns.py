# corpus: runnable
# Red team 25a (alias45): NumPy calls that return their argument when nothing needs doing (`np.asarray_chkfinite`,
# `np.atleast_*`, `np.require`, `np.ascontiguousarray` of a contiguous array, `np.squeeze` of nothing,
# `astype(copy=False)`, `np.nan_to_num(copy=False)`, `__array__`, `np.ma.getdata`)
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(25)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(3, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
moments = np.arange(1.0, 7.0).reshape(2, 3)
checked = np.asarray_chkfinite(moments)
one = np.atleast_1d(moments)
two = np.atleast_2d(moments)
three = np.atleast_3d(moments)
req = np.require(moments, requirements=["C"])
contig = np.ascontiguousarray(moments)
squeezed = np.squeeze(moments)
same = moments.astype(moments.dtype, copy=False)
finite = np.nan_to_num(moments, copy=False)
arr = moments.__array__()
data = np.ma.getdata(moments)
log = []
for step in range(3):
    x = torch.randn(4, 3, device=device)
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    moments += round(loss.item(), 3)
    s1 = np.sqrt(checked)
    s2 = np.sqrt(one)
    s3 = np.sqrt(two)
    s4 = np.sqrt(three)
    s5 = np.sqrt(req)
    s6 = np.sqrt(contig)
    s7 = np.sqrt(squeezed)
    s8 = np.sqrt(same)
    s9 = np.sqrt(finite)
    s10 = np.sqrt(arr)
    s11 = np.sqrt(data)
    log.append([round(float(np.asarray(v).sum()), 4) for v in (s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11,)])
print("noop", log)
