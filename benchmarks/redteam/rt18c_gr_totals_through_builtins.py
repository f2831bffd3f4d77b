# corpus: runnable
# Running loss totals (and values derived from them) kept through builtins that hand back their
# argument: `min`/`max` of a best-so-far, `sum` of a list, `sorted`, `list`, `copy.copy`, a
# walrus binding, `torch.cat` of the total, `history += [total / n]`.
import copy
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(0)
model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
data = [(torch.randn(4, 3), torch.randn(4, 1)) for _ in range(4)]


def step(x, y):
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss


class Best:
    def __init__(self):
        self.best = torch.tensor(100.0)

    def fit(self):
        total = 0
        for x, y in data:
            loss = step(x, y)
            total += loss
            self.best = min(self.best, total)
        return self.best.requires_grad


print("A", Best().fit())

kept = []
t2 = 0
for x, y in data:
    loss = step(x, y)
    t2 += loss
    kept.append(sum([t2, 0]))
print("B", [k.requires_grad for k in kept])

kept3 = []
t3 = 0
for x, y in data:
    loss = step(x, y)
    t3 += loss
    kept3.append(copy.copy(t3))
print("C", [k.requires_grad for k in kept3])

hist = []
t4 = 0
for k, (x, y) in enumerate(data):
    loss = step(x, y)
    t4 += loss
    hist += [t4 / (k + 1)]
print("D", [h.requires_grad for h in hist])

cats = []
t5 = 0
for x, y in data:
    loss = step(x, y)
    t5 += loss
    cats.append(torch.cat([t5.reshape(1), loss.detach().reshape(1)]))
print("E", [c.requires_grad for c in cats])

logs = []
t6 = 0
for x, y in data:
    loss = step(x, y)
    t6 += loss
    logs.append((avg := t6 / 2))
print("F", [v.requires_grad for v in logs], avg.requires_grad)
