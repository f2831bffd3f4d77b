# corpus: runnable
# A size changed through `global` / `nonlocal` / an attribute / a match capture / an except
# binding inside the loop; a factory under `try` that fails; a factory after a `continue` guard.
import torch

T = 2


def grow():
    global T
    T += 1


out = []
for step in range(3):
    grid = torch.linspace(0.0, 1.0, T)
    out.append(grid.numel())
    grow()
print(out)


def outer():
    n = 2

    def bump():
        nonlocal n
        n += 1

    got = []
    for _ in range(3):
        got.append(torch.arange(n).sum().item())
        bump()
    return got


print(outer())


class Cfg:
    def __init__(self):
        self.k = 2

    def more(self):
        self.k += 1


cfg = Cfg()
got = []
for _ in range(3):
    got.append(torch.ones(cfg.k).sum().item())
    cfg.more()
print(got)

sizes = {"n": 2}
got = []
for cmd in [("set", 4), ("keep", 0), ("set", 1)]:
    match cmd:
        case ("set", m):
            pass
        case _:
            m = 3
    got.append(torch.zeros(m).numel())
print(got)

got = []
for raw in [[1.0, 2.0], [1.0, [2.0]], [3.0, 4.0]]:
    try:
        t = torch.tensor([[1.0, 2.0], [3.0]])
        got.append(t.sum().item())
    except ValueError as e:
        got.append("ragged")
print(got)

got = []
for i in range(3):
    if i < 5:
        continue
    bad = torch.tensor([[1.0, 2.0], [3.0]])
    got.append(bad)
print(got)

got = []
n = 3
for i in range(3):
    got.append(torch.eye(n).trace().item())
    exec("n = n + 1")
print(got)
