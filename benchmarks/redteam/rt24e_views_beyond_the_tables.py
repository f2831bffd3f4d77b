# corpus: runnable
# Red team 24, wave 5 (attacks the wave-4 fix, which listed names): more NumPy calls that return
# their argument or a view of it - `np.asarray_chkfinite`, `np.rollaxis`, `np.real_if_close`,
# `np.ma.getdata`, `np.asanyarray(...).view()` - bound before a loop that changes the base in place
import numpy as np
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(24)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(3, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
moments = np.arange(6.0).reshape(2, 3)
checked = np.asarray_chkfinite(moments)
rolled = np.rollaxis(moments, 1)
realpart = np.real_if_close(moments)
data = np.ma.getdata(moments)
copied = np.copy(moments)
log = []
for step in range(3):
    x = torch.randn(4, 3, device=device)
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    moments += round(loss.item(), 3)
    s1 = np.sqrt(checked)
    s2 = np.sqrt(rolled)
    s3 = np.sqrt(realpart)
    s4 = np.sqrt(data)
    s5 = np.sqrt(copied)
    log.append([round(float(v.sum()), 4) for v in (s1, s2, s3, s4, s5)])
print("views", log)
