# corpus: runnable
# Red team 25a (alias45): NumPy 2's `np.linalg.matrix_transpose` / `np.linalg.diagonal` and a pure-transposition or
# diagonal `np.einsum` return views of their argument
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(25)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(3, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
moments = np.arange(1.0, 10.0).reshape(3, 3)
mt = np.linalg.matrix_transpose(moments)
dg = np.linalg.diagonal(moments)
et = np.einsum("ij->ji", moments)
ed = np.einsum("ii->i", moments)
log = []
for step in range(3):
    x = torch.randn(4, 3, device=device)
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    moments += round(loss.item(), 3)
    s1 = np.sqrt(mt)
    s2 = np.sqrt(dg)
    s3 = np.sqrt(et)
    s4 = np.sqrt(ed)
    log.append([round(float(np.asarray(v).sum()), 4) for v in (s1, s2, s3, s4,)])
print("linalg", log)
