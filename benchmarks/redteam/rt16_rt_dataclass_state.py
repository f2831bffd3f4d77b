# corpus: runnable
# Dataclasses holding the loop's state: a field bumped through a method, `dataclasses.replace`
# rebinding the holder, a frozen dataclass changed with `object.__setattr__`, a tensor field
# changed in place, `__post_init__` building from a global, `asdict` copies.
import dataclasses
from dataclasses import dataclass, field

import torch

torch.set_num_threads(1)


@dataclass
class State:
    step: int = 0
    lr: float = 1.0
    buf: torch.Tensor = field(default_factory=lambda: torch.zeros(2))

    def advance(self):
        self.step += 1
        self.lr *= 0.5


st = State()
out = []
for i in range(3):
    lr = torch.tensor(st.lr)
    st.advance()
    out.append(float(lr))
print("method", out)

cfg = State()
out = []
for i in range(3):
    t = torch.full((2,), cfg.lr)
    cfg = dataclasses.replace(cfg, lr=cfg.lr + 1)
    out.append(t.tolist())
print("replace", out)


@dataclass(frozen=True)
class Frozen:
    scale: float = 2.0


fz = Frozen()
out = []
for i in range(3):
    t = torch.tensor(fz.scale)
    object.__setattr__(fz, "scale", fz.scale * 3)
    out.append(float(t))
print("frozen setattr", out)

hold = State()
out = []
for i in range(3):
    snap = torch.tensor(hold.buf.tolist())
    hold.buf += 1
    out.append(snap.tolist())
print("tensor field", out)

BASE = [1.0]


@dataclass
class Made:
    v: float = 0.0

    def __post_init__(self):
        BASE[0] += 1.0
        self.v = BASE[0]


out = []
for i in range(3):
    Made()
    t = torch.tensor(BASE[0])
    out.append(float(t))
print("post_init", out)

holder = State()
out = []
for i in range(3):
    d = dataclasses.asdict(holder)
    t = torch.tensor(d["lr"])
    vars(holder)["lr"] = holder.lr + 0.25
    out.append(float(t))
print("vars write", out)
