# corpus: runnable
# Second wave on protocol objects: the objects sit inside a tuple of sizes,
# an attribute of a config object, a starred list of sizes; a `__float__` reads a table the
# loop changes.
import torch

torch.set_num_threads(1)
CFG = {"n": 1, "lr": 0.5}


class Width:
    def __index__(self):
        return CFG["n"]


class Rate:
    def __float__(self):
        return CFG["lr"]


class Conf:
    pass


W, R = Width(), Rate()
conf = Conf()
conf.width = W
dims = [W, 2]
out = []
for step in range(3):
    a = torch.zeros((W, 2))
    c = torch.ones(conf.width)
    d = torch.zeros(*dims)
    CFG["n"] += 1
    CFG["lr"] *= 2
    out.append((tuple(a.shape), c.numel(), tuple(d.shape)))
print("nested", out)
