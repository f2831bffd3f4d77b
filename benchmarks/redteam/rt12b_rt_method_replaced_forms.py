# corpus: runnable
# Wave 2, against the "method replaced" refusal: a method bound on the instance with
# `types.MethodType`, a subclass whose body binds `update = _update`, a class decorator that
# replaces a method, `staticmethod(f)` assigned on the class, a method copied from another class.
import types

import torch

torch.manual_seed(0)
torch.set_num_threads(1)
xs = torch.randn(4, 3)


class Meter:
    def update(self, x):
        return x.sum()


def _update(self, x):
    hist.add_(x)
    return x.sum()


meter = Meter()
meter.update = types.MethodType(_update, meter)
rows = []
for epoch in range(3):
    hist = torch.zeros(3)
    for x in xs:
        meter.update(x)
    rows.append(round(hist.sum().item(), 4))
print("instance method", rows)


class Counting(Meter):
    update = _update


c = Counting()
rows = []
for epoch in range(3):
    hist = torch.zeros(3)
    for x in xs:
        c.update(x)
    rows.append(round(hist.sum().item(), 4))
print("class body alias", rows)


def tracked(cls):
    def update(self, x):
        acc.mul_(1.5)
        return x.sum()
    cls.update = update
    return cls


@tracked
class Tracked:
    def update(self, x):
        return x.sum()


t = Tracked()
rows = []
for epoch in range(3):
    acc = torch.ones(3)
    for x in xs:
        t.update(x)
    rows.append(round(acc.sum().item(), 4))
print("decorator", rows)


class Other:
    def update(self, x):
        peak.copy_(torch.maximum(peak, x))
        return x.sum()


class Plain:
    def update(self, x):
        return x.sum()


Plain.update = Other.update
p = Plain()
rows = []
for epoch in range(3):
    peak = torch.zeros(3)
    for x in xs:
        p.update(x)
    rows.append(round(peak.sum().item(), 4))
print("copied", rows)
