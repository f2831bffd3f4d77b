# corpus: runnable
# Loop-invariant looking configuration read through descriptors and class state: a descriptor
# whose `__get__` advances a warmup counter, a class attribute changed by a classmethod the loop
# calls, a `cached_property` invalidated per epoch, `setattr` on the class.
import functools

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class Warmup:
    def __set_name__(self, owner, name):
        self.name = name

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        obj.calls += 1
        return min(1.0, obj.calls / 3)


class Config:
    factor = Warmup()
    width = 4

    def __init__(self):
        self.calls = 0

    @classmethod
    def widen(cls):
        cls.width += 1


class Stats:
    def __init__(self, data):
        self.data = data

    @functools.cached_property
    def mean(self):
        return float(np.mean(self.data))


cfg = Config()
scales = []
for step in range(4):
    scale = torch.full((2,), cfg.factor)
    scales.append(scale.tolist())
print("warmup scales", scales)

shapes = []
for stage in range(3):
    pad = torch.zeros(Config.width)
    shapes.append(pad.numel())
    Config.widen()
print("widths", shapes)

st = Stats([1.0, 2.0, 3.0])
means = []
for epoch in range(3):
    centre = torch.tensor(st.mean)
    means.append(centre.item())
    st.data = [v * 2 for v in st.data]
    del st.__dict__["mean"]
print("means", means)

net = nn.Linear(3, 1)
outs = []
for level in range(3):
    bias = torch.full((3,), getattr(Config, "width"))
    outs.append(round(net(bias.float()).item(), 5))
    setattr(Config, "width", Config.width * 2)
print("levels", outs)
