# corpus: runnable
# Red team 22: a target network softly updated through `zip(target.parameters(), ...)`, a shallow `copy.copy` of the
# model (same parameters), `list(target.parameters())`: snapshots built from them read the later values
import copy
import numpy as np
import torch
from torch import nn
torch.set_num_threads(1)
torch.manual_seed(22)
model = nn.Linear(4, 1)
target = copy.deepcopy(model)
shallow = copy.copy(model)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
tw = target.weight
sw = shallow.weight
params = list(target.parameters())
sd = model.state_dict()
sdw = sd["weight"]
tau = 0.5
seen = []
for step in range(4):
    a = torch.tensor(tw.tolist())
    b = torch.tensor(sw.tolist())
    c = torch.tensor(params[0].tolist())
    d = torch.tensor(sdw.tolist())
    e = np.abs(tw.detach().numpy())
    x = torch.randn(8, 4)
    loss = model(x).pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    with torch.no_grad():
        for p_t, p in zip(target.parameters(), model.parameters()):
            p_t.data.mul_(tau).add_(p.data, alpha=1 - tau)
    seen.append([round(float(v.sum()), 5) for v in (a, b, c, d)] + [round(float(e.sum()), 5)])
print(seen)
