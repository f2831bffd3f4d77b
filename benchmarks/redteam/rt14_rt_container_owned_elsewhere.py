# corpus: runnable
# Containers owned by an object and changed through it: `hist = trainer.history` read by the
# loop while `log(trainer)` appends; `cfg.sizes += [n]` (in-place on the list through an
# attribute); `buffers["x"] += 1` on a NumPy array aliased before the loop; a dataclass field
# with a `default_factory` list changed by a method; a list kept in a tuple.
from dataclasses import dataclass, field

import numpy as np
import torch

torch.set_num_threads(1)


class Trainer:
    def __init__(self):
        self.history = [1.0]


def log(tr):
    tr.history.append(tr.history[-1] * 2)


trainer = Trainer()
hist = trainer.history
outs = []
for step in range(3):
    h = torch.tensor(hist)
    log(trainer)
    outs.append(h.sum().item())
print("history via object", outs)


class Cfg:
    sizes = [1]


cfg = Cfg()
sizes = cfg.sizes
got = []
for step in range(3):
    t = torch.tensor(sizes)
    cfg.sizes += [step]
    got.append(t.numel())
print("attr +=", got)

x = np.zeros(3)
buffers = {"x": x}
sums = []
for step in range(3):
    t = torch.from_numpy(x.copy())
    buffers["x"] += 1
    sums.append(t.sum().item())
print("dict entry +=", sums)


@dataclass
class Stats:
    seen: list = field(default_factory=list)

    def add(self, v):
        self.seen.append(v)


st = Stats()
seen = st.seen
lens = []
for step in range(3):
    t = torch.tensor(seen, dtype=torch.float32)
    st.add(float(step))
    lens.append(t.numel())
print("dataclass list", lens)

pair = ([0.5], "name")
vals = []
for step in range(3):
    t = torch.tensor(pair[0])
    pair[0].append(step)
    vals.append(t.numel())
print("list in tuple", vals)
