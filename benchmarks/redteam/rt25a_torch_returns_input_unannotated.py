# corpus: runnable
# Red team 25a (alias45): torch calls whose schemas carry no alias annotation but return their input: dropout
# outside training (`F.dropout`, `torch.dropout`, `F.alpha_dropout`, `F.dropout2d`), Python-level
# `torch.broadcast_tensors` / `torch.meshgrid` / `torch.einsum("ij->ji")` (views)
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(25)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(3, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
base = torch.arange(1.0, 7.0).reshape(2, 3)
row = torch.arange(1.0, 4.0)
d1 = F.dropout(base, 0.3, training=False)
d2 = torch.dropout(base, 0.0, False)
d3 = F.alpha_dropout(base, 0.2, training=False)
d4 = F.dropout2d(base.unsqueeze(0), 0.2, training=False)
bt = torch.broadcast_tensors(base, base)[0]
mg = torch.meshgrid(row, row, indexing="ij")[0]
es = torch.einsum("ij->ji", base)
log = []
for step in range(3):
    x = torch.randn(4, 3, device=device)
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    base.add_(round(loss.item(), 3))
    row.mul_(1.5)
    s1 = np.sqrt(d1.numpy())
    s2 = np.sqrt(d2.numpy())
    s3 = np.sqrt(d3.numpy())
    s4 = np.sqrt(d4.numpy())
    s5 = np.sqrt(bt.numpy())
    s6 = np.sqrt(mg.numpy())
    s7 = np.sqrt(es.numpy())
    log.append([round(float(np.asarray(v).sum()), 4) for v in (s1, s2, s3, s4, s5, s6, s7,)])
print("unannotated", log)
