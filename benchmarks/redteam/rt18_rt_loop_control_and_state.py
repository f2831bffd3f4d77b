# corpus: runnable
# Factories in loops with `try/except`, `break`/`continue`, `while` loops with changing
# conditions, a list rebuilt with `+=` and `[:]`, a counter kept on the class through `self` in a
# helper method, a closure that changes a captured list with `nonlocal`, a list sorted by a
# helper, a loop variable reused as a size.
import torch

torch.set_num_threads(1)
torch.manual_seed(0)

out = []
widths = [2, 3, 0, 4]
for w in widths:
    try:
        t = torch.ones(w) / w
    except ZeroDivisionError:
        continue
    out.append(t.sum().item())
print("A try", out)

hist = [1.0]
out = []
k = 0
while len(hist) < 4:
    t = torch.tensor(hist)
    out.append(t.sum().item())
    hist += [hist[-1] * 2]
    k += 1
print("B while", out)

buf = [0.5, 0.25]
out = []
for i in range(3):
    t = torch.tensor(buf)
    out.append(t.tolist())
    buf[:] = [b + i for b in buf]
print("C slice assign", out)


class Meter:
    count = 0

    def tick(self):
        self.count += 1

    def run(self, n):
        res = []
        for _ in range(n):
            self.tick()
            res.append(torch.full((2,), float(self.count)).sum().item())
        return res


print("D self attr", Meter().run(3))


def make_counter():
    seen = []

    def step(v):
        nonlocal seen
        seen = seen + [v]
        return len(seen)

    return step, lambda: seen


step, get = make_counter()
out = []
for i in range(3):
    step(i)
    t = torch.tensor(get(), dtype=torch.float32)
    out.append(t.tolist())
print("E nonlocal", out)

order = [3.0, 1.0, 2.0]


def sort_it(lst):
    lst.sort()


out = []
for i in range(2):
    t = torch.tensor(order)
    out.append(t.tolist())
    sort_it(order)
print("F sorted by helper", out)

out = []
n = 1
for rnd in range(3):
    t = torch.arange(n)
    out.append(t.tolist())
    if rnd == 1:
        break
    n = n + 2
print("G break", out)
