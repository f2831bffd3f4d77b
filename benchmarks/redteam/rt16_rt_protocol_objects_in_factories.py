# corpus: runnable
# Objects of the program's own classes handed to torch factories: torch converts them through
# their protocol methods (`__index__` for sizes, `__len__`/`__getitem__` for sequences,
# `__array__`, `__float__`, `__iter__`), which read or change state the loop changes. The
# name never changes; the value the factory gets does.
import torch, numpy as np
torch.set_num_threads(1)
CFG = {"lr": 0.5, "n": 2}

class Rate:
    def __float__(self):
        return CFG["lr"]
LR = Rate()
out = []
for step in range(3):
    lr = torch.full((2,), float(LR))
    CFG["lr"] *= 2
    out.append(lr.tolist())
print("A __float__ via float()", out)


class Width:
    def __index__(self):
        return CFG["n"]
N = Width()
out = []
for step in range(3):
    z = torch.zeros(N)
    CFG["n"] += 1
    out.append(z.tolist())
print("B zeros __index__", out)

class Seq:
    def __len__(self):
        return CFG["n"]
    def __getitem__(self, i):
        if i >= CFG["n"]:
            raise IndexError
        return float(i)
S = Seq()
out = []
for step in range(3):
    t = torch.tensor(S)
    CFG["n"] += 1
    out.append(t.tolist())
print("C sequence", out)

class ArrayLike:
    def __array__(self, dtype=None, copy=None):
        return np.full(2, CFG["lr"])
AL = ArrayLike()
out = []
for step in range(3):
    t = torch.tensor(np.asarray(AL))
    CFG["lr"] += 1
    out.append(t.tolist())
print("D __array__", out)

class Scale:
    def __init__(self):
        self.k = 1.0
    def __float__(self):
        self.k += 1.0
        return self.k
SC = Scale()
out = []
for step in range(3):
    t = torch.tensor(float(SC))
    out.append(float(t))
print("E float side effect", out)

class Dims:
    def __init__(self):
        self.d = [1]
    def __iter__(self):
        self.d.append(1)
        return iter(self.d)
D = Dims()
out = []
for step in range(3):
    t = torch.tensor(list(D))
    out.append(t.numel())
print("F __iter__", out)
