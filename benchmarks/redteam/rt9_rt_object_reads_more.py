# corpus: runnable
# Second wave (attacks the object-code fix): datasets whose `__getitem__` draws random numbers
# reached without a constructor in sight: built by a factory function, inherited from a base
# class, kept on a trainer (`self.ds[0]`), and a config whose warmup descriptor is inherited.
import random

import torch

random.seed(0)
torch.manual_seed(0)
torch.set_num_threads(1)


class Base:
    def __init__(self, rows):
        self.rows = rows

    def __getitem__(self, i):
        return [v + random.random() for v in self.rows[i]]


class Noisy(Base):
    pass


def make_dataset():
    return Noisy([[0.0, 1.0], [2.0, 3.0]])


ds = make_dataset()
direct = Noisy([[1.0, 1.0]])
res = []
for epoch in range(3):
    a = torch.tensor(ds[0])
    b = torch.tensor(direct[0])
    res.append((round(a.sum().item(), 6), round(b.sum().item(), 6)))
print("datasets", res)


class Trainer:
    def __init__(self):
        self.ds = Noisy([[0.5, 0.5]])

    def run(self):
        out = []
        for epoch in range(3):
            ref = torch.tensor(self.ds[0])
            out.append(round(ref.sum().item(), 6))
        return out


print("trainer", Trainer().run())
