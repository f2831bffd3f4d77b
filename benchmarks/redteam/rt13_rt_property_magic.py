# corpus: runnable
# Properties, descriptors and `__getattr__` / `__setattr__` whose reads or writes change state a
# tensor built in the loop reads: a property that bumps a global, `__getattr__` appending to a
# list, `__setattr__` scaling a shared tensor in place, a descriptor's `__get__` rebinding a global.
import torch

torch.set_num_threads(1)
scale = 1.0
weights = [1.0, 2.0]
shared = torch.ones(2)


class Clock:
    @property
    def tick(self):
        global scale
        scale *= 2
        return scale


class Lazy:
    def __getattr__(self, name):
        weights.append(float(len(weights)))
        return len(weights)


class Sink:
    def __setattr__(self, name, value):
        shared.mul_(3)
        object.__setattr__(self, name, value)


class Counter:
    def __get__(self, obj, owner):
        global scale
        scale += 1
        return scale


class Holder:
    count = Counter()


clock, lazy, sink, holder = Clock(), Lazy(), Sink(), Holder()
a, b, c, d = [], [], [], []
for step in range(3):
    t = torch.full((2,), scale)
    _ = clock.tick
    a.append(t.tolist())
print("property", a)
for step in range(3):
    t = torch.tensor(weights)
    _ = lazy.anything
    b.append(t.tolist())
print("getattr", b)
for step in range(3):
    t = torch.tensor(shared.tolist())
    sink.last = step
    c.append(t.tolist())
print("setattr", c)
for step in range(3):
    t = torch.full((1,), scale)
    _ = holder.count
    d.append(t.tolist())
print("descriptor", d)
