# corpus: runnable
# Constant-looking factories whose result is a tensor subclass carrying per-object state: a
# `.as_subclass` of a class counting the operations applied to it, `torch.Tensor._make_subclass`,
# and a subclass whose in-place `__iadd__` writes a running log onto the object.
import torch

torch.set_num_threads(1)


class Counted(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        for a in args:
            if isinstance(a, Counted):
                a.__dict__["uses"] = a.__dict__.get("uses", 0) + 1
        return super().__torch_function__(func, types, args, kwargs or {})


class Logged(torch.Tensor):
    def log(self, tag):
        self.__dict__.setdefault("tags", []).append(tag)
        return self


xs = torch.arange(6.0).reshape(3, 2)
uses = []
for epoch in range(3):
    w = torch.ones(2).as_subclass(Counted)
    for x in xs:
        _ = w * x
    uses.append(w.__dict__.get("uses", 0))
print("uses", uses)

tags = []
for epoch in range(3):
    z = torch.Tensor._make_subclass(Logged, torch.zeros(2))
    for i, x in enumerate(xs):
        z.log(i)
    tags.append(len(z.tags))
print("tags", tags)
