# corpus: runnable
# Wave 2: more code Python runs by itself: a closure returned by a factory that rebinds a global,
# a metaclass `__call__` counting instances, `__del__` of the object a name drops, `__enter__` of a
# `with` beside the tensor, `__len__` by `len()`, `__eq__` by `in`, `__bool__` by `if`, `__index__` by
# `range()`, a module-level `@contextmanager` generator, `__init_subclass__` of a class made in the loop.
import contextlib

import torch

torch.set_num_threads(1)
level = 1.0
bag = [1.0]
res = {}


def make_bump():
    def bump():
        global level
        level += 1
    return bump


class Meta(type):
    def __call__(cls, *a):
        bag.append(2.0)
        return super().__call__(*a)


class Made(metaclass=Meta):
    pass


class Dropper:
    def __del__(self):
        bag.append(3.0)


class Scope:
    def __enter__(self):
        global level
        level *= 2
        return self

    def __exit__(self, *exc):
        return False


class Sized:
    def __len__(self):
        bag.append(4.0)
        return 1


class Eq:
    def __eq__(self, other):
        global level
        level += 0.5
        return False


class Truthy:
    def __bool__(self):
        bag.append(5.0)
        return True


class Idx:
    def __index__(self):
        global level
        level -= 0.25
        return 1


@contextlib.contextmanager
def phase():
    global level
    level += 10
    yield


bump = make_bump()
rows = []
for step in range(3):
    t = torch.full((1,), level)
    bump()
    rows.append(t.item())
res["closure"] = rows

rows = []
for step in range(3):
    t = torch.tensor(bag)
    Made()
    rows.append(t.numel())
res["metaclass"] = rows

rows = []
holder = Dropper()
for step in range(3):
    t = torch.tensor(bag)
    holder = Dropper()
    rows.append(t.numel())
res["__del__"] = rows

rows = []
for step in range(3):
    t = torch.full((1,), level)
    with Scope():
        pass
    rows.append(t.item())
res["__enter__"] = rows

rows = []
s = Sized()
for step in range(3):
    t = torch.tensor(bag)
    n = len(s)
    rows.append(t.numel())
res["__len__"] = rows

rows = []
e = Eq()
for step in range(3):
    t = torch.full((1,), level)
    found = e in [1, 2]
    rows.append(t.item())
res["__eq__"] = rows

rows = []
tr = Truthy()
for step in range(3):
    t = torch.tensor(bag)
    if tr:
        pass
    rows.append(t.numel())
res["__bool__"] = rows

rows = []
ix = Idx()
for step in range(3):
    t = torch.full((1,), level)
    for _ in range(ix):
        pass
    rows.append(t.item())
res["__index__"] = rows

rows = []
for step in range(3):
    t = torch.full((1,), level)
    with phase():
        pass
    rows.append(t.item())
res["contextmanager"] = rows
for k, v in res.items():
    print(k, v)
