# corpus: runnable
# Red team 25a (alias45): ATen ops whose schemas say they return their input (`Tensor(a) self -> Tensor(a)`) under
# names no view list had: `torch.resolve_conj`, `torch.resolve_neg`, `torch.positive`,
# `torch.ops.aten.alias`, `Tensor.to_dense()` / `.dequantize()` of a dense float tensor, a one-tensor `torch.cartesian_prod`
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(25)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(3, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
base = torch.arange(1.0, 7.0)
rc = torch.resolve_conj(base)
rn = torch.resolve_neg(base)
pos = torch.positive(base)
al = torch.ops.aten.alias(base)
dense = base.to_dense()
deq = base.dequantize()
prod = torch.cartesian_prod(base)
log = []
for step in range(3):
    x = torch.randn(4, 3, device=device)
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    base.add_(round(loss.item(), 3))
    s1 = np.sqrt(rc.numpy())
    s2 = np.sqrt(rn.numpy())
    s3 = np.sqrt(pos.numpy())
    s4 = np.sqrt(al.numpy())
    s5 = np.sqrt(dense.numpy())
    s6 = np.sqrt(deq.numpy())
    s7 = np.sqrt(prod.numpy())
    log.append([round(float(np.asarray(v).sum()), 4) for v in (s1, s2, s3, s4, s5, s6, s7,)])
print("annotated", log)
