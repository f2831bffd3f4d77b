# corpus: runnable
# More values derived from a running loss total and kept as tensors: an average bound then
# appended, a derived value yielded, a derived value put in a dict, a derived value handed to a
# program function that keeps it, an average printed as a tensor after the loop, a derived
# value stacked with torch.stack and read as a graph.
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


hist = []
total = 0
for k, (x, y) in enumerate(data):
    loss = step(x, y)
    total += loss
    avg = total / (k + 1)
    hist.append(avg)
print("A", [h.grad_fn is not None for h in hist])


def epochs():
    t = 0
    for x, y in data:
        loss = step(x, y)
        t += loss
        yield t * 1.0


print("B", [v.requires_grad for v in epochs()])

logs = {}
tot2 = 0
for k, (x, y) in enumerate(data):
    loss = step(x, y)
    tot2 += loss
    logs[k] = tot2 / 2
print("C", [v.requires_grad for v in logs.values()])

kept = []


def keep(v):
    kept.append(v)


tot3 = 0
for x, y in data:
    loss = step(x, y)
    tot3 += loss
    keep(tot3 - 0)
print("D", [v.requires_grad for v in kept])

tot4 = 0
for x, y in data:
    loss = step(x, y)
    tot4 += loss
mean4 = tot4 / len(data)
print("E", mean4.requires_grad)

tot5 = 0
rows = []
for x, y in data:
    loss = step(x, y)
    tot5 += loss
    rows.append(torch.stack([tot5, loss]))
print("F", [r.requires_grad for r in rows])
