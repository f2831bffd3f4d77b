# corpus: runnable
# Program objects whose reader-named attributes (`dtype`, `shape`, `device`, `size`, `T`) are
# properties or `__getattr__` results with side effects: each read advances a schedule, so a
# factory reading them gives another tensor every step.
import torch

torch.set_num_threads(1)


class Cycle:
    def __init__(self):
        self.i = 0

    @property
    def dtype(self):
        self.i += 1
        return [torch.float32, torch.float64][self.i % 2]

    @property
    def shape(self):
        self.i += 1
        return (self.i % 3 + 1,)


cfg = Cycle()
got = []
for step in range(3):
    t = torch.zeros(2, dtype=cfg.dtype)
    got.append(str(t.dtype))
print("dtypes", got)

shp = Cycle()
sizes = []
for step in range(3):
    z = torch.ones(shp.shape)
    sizes.append(z.numel())
print("shapes", sizes)


class Lazy:
    def __init__(self):
        self.calls = 0

    def __getattr__(self, name):
        self.calls += 1
        if name == "size":
            return self.calls
        raise AttributeError(name)


lz = Lazy()
ns = []
for step in range(3):
    r = torch.arange(lz.size)
    ns.append(r.numel())
print("getattr sizes", ns)


class Ticker:
    n = 0

    def __get__(self, obj, owner):
        Ticker.n += 1
        return Ticker.n


class Holder:
    device_index = Ticker()


hd = Holder()
ts = []
for step in range(3):
    v = torch.tensor(hd.device_index)
    ts.append(int(v))
print("descriptor", ts)
