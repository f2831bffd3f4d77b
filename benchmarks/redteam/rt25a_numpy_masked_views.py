# corpus: runnable
# Red team 25a (alias45): `np.ma` functions on a plain array return a MaskedArray sharing its data (`np.ma.filled`
# returns the array itself): bound before a loop that changes the array in place
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
filled = np.ma.filled(moments)
masked = np.ma.MaskedArray(moments)
flat = np.ma.ravel(moments)
two_d = np.ma.atleast_2d(moments)
turned = np.ma.transpose(moments)
reshaped = np.ma.reshape(moments, -1)
squeezed = np.ma.squeeze(moments)
log = []
for step in range(3):
    x = torch.randn(4, 3, device=device)
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    moments += round(loss.item(), 3)
    s1 = np.sqrt(filled)
    s2 = np.sqrt(masked)
    s3 = np.sqrt(flat)
    s4 = np.sqrt(two_d)
    s5 = np.sqrt(turned)
    s6 = np.sqrt(reshaped)
    s7 = np.sqrt(squeezed)
    log.append([round(float(np.asarray(v).sum()), 4) for v in (s1, s2, s3, s4, s5, s6, s7,)])
print("masked", log)
