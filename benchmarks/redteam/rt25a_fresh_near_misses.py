# corpus: runnable
# Red team 25a (alias45): near misses: results that are provably fresh (`np.mean`, a ufunc, `np.sort`, `np.copy`,
# `torch.exp`, `x @ w`, `torch.matmul`, `Tensor.clone`) bound before a loop that changes their source in
# place: hoisting work on them is safe and should still happen
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
base = torch.arange(1.0, 7.0).reshape(2, 3)
w = torch.ones(3, 2)
avg = np.mean(moments, axis=0)
root = np.sqrt(moments)
ordered = np.sort(moments, axis=1)
copied = np.copy(moments)
ex = torch.exp(base)
prod = base @ w
mm = torch.matmul(base, w)
cl = base.clone()
log = []
for step in range(3):
    x = torch.randn(4, 3, device=device)
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    moments += round(loss.item(), 3)
    base.add_(round(loss.item(), 3))
    s1 = np.sqrt(avg)
    s2 = np.sqrt(root)
    s3 = np.sqrt(ordered)
    s4 = np.sqrt(copied)
    s5 = np.sqrt(ex.numpy())
    s6 = np.sqrt(prod.numpy())
    s7 = np.sqrt(mm.numpy())
    s8 = np.sqrt(cl.numpy())
    log.append([round(float(np.asarray(v).sum()), 4) for v in (s1, s2, s3, s4, s5, s6, s7, s8,)])
print("fresh", log)
