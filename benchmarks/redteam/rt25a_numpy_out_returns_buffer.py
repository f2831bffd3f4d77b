# corpus: runnable
# Red team 25a (alias45): a NumPy function given `out=` returns that buffer: `np.clip(a, lo, hi, out=a)`,
# `np.multiply(a, 2, out=buf)`, `np.round(a, 1, out=a)`, `np.negative(a, out=buf)`; the loop changes the buffers
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
buf = np.empty_like(moments)
buf2 = np.empty_like(moments)
clipped = np.clip(moments, 0.0, 100.0, out=moments)
doubled = np.multiply(moments, 2.0, out=buf)
rounded = np.round(moments, 1, out=moments)
negated = np.negative(moments, out=buf2)
log = []
for step in range(3):
    x = torch.randn(4, 3, device=device)
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    moments += round(loss.item(), 3)
    buf += 1.0
    buf2 -= 1.0
    s1 = np.sqrt(clipped)
    s2 = np.sqrt(doubled)
    s3 = np.sqrt(rounded)
    s4 = np.sqrt(np.abs(negated))
    log.append([round(float(np.asarray(v).sum()), 4) for v in (s1, s2, s3, s4,)])
print("out", log)
