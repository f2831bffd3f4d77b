# corpus: runnable
# Red team 22: a NumPy view of a tensor (or a tensor over a NumPy array) kept in a container, a record or an
# attribute, read back by another name; the tensor is changed in place in the loop
from collections import namedtuple
from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(22)
device = "cuda" if torch.cuda.is_available() else "cpu"

Stats = namedtuple("Stats", ["mean", "std"])


@dataclass
class Buffers:
    host: np.ndarray


running = torch.zeros(4)
held = [running.numpy()]
h_list = held[0]
paired = (running.numpy(), 1)
h_tuple = paired[0]
table = {"run": running.numpy()}
h_dict = table["run"]
later = []
later.append(running.numpy())
h_append = later[0]
stats = Stats(running.numpy(), 1.0)
h_nt = stats.mean
bufs = Buffers(running.numpy())
h_dc = bufs.host
ns = SimpleNamespace(arr=running.numpy())
h_ns = ns.arr
arr = np.ones(4, dtype=np.float32)
wrapped = [torch.from_numpy(arr)]
t_back = wrapped[0]
model = nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
log = []
for step in range(4):
    a = np.sqrt(h_list)
    b = np.sqrt(h_tuple)
    c = np.sqrt(h_dict)
    d = np.sqrt(h_append)
    e = np.sqrt(h_nt)
    f = np.sqrt(h_dc)
    g = np.sqrt(h_ns)
    k = np.log1p(arr)
    x = torch.randn(8, 4, device=device)
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    running.add_(float(step + 1))
    t_back.mul_(2.0)
    log.append([round(float(v.sum()), 5) for v in (a, b, c, d, e, f, g, k)])
print("containers", log)
