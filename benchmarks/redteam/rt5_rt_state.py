# corpus: runnable
# Constants rebuilt every step whose value or object the loop changes in ways that are not
# an assignment to their name: `out=` into the built tensor, `.data` writes, hooks that
# fire on backward, `nonlocal` and `global` counters bumped by helpers, a while loop that
# breaks, a walrus in the condition, a list comprehension's variable.
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = nn.Linear(3, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
xs = torch.randn(5, 3)

kept = []
for step in range(3):
    base = torch.zeros(3, device=device)
    torch.add(xs[step].to(device), 1.0, out=base)
    kept.append(base)
print("out=", [k.sum().item() for k in kept])

kept = []
for step in range(3):
    w = torch.ones(3, device=device)
    w.data.mul_(step + 1)
    kept.append(w)
print(".data", [k.sum().item() for k in kept])

seen = []
for step in range(3):
    scale = torch.ones(3, device=device, requires_grad=True)
    scale.register_hook(lambda g: seen.append(g.sum().item()))
    loss = (model(xs[step].to(device) * scale)).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
print("hook", [round(s, 5) for s in seen])

LEVEL = 1


def bump():
    global LEVEL
    LEVEL += 1


for step in range(3):
    level = torch.full((2,), float(LEVEL), device=device)
    bump()
    print("global", level.tolist())


def make_counter():
    count = 0

    def tick():
        nonlocal count
        count += 1
        return count

    def run():
        outs = []
        for step in range(3):
            c = torch.tensor([count], device=device)
            tick()
            outs.append(c.item())
        return outs

    return run


print("nonlocal", make_counter()())

i = 0
while True:
    ramp = torch.arange(3, device=device) * 0 + i
    i += 1
    if i > 2:
        break
print("while", ramp.tolist())

queue = [np.array([1.0, 2.0]), np.array([3.0, 4.0])]
while (item := queue.pop() if queue else None) is not None:
    tmp = torch.as_tensor(np.stack([item, item]), device=device)
    print("walrus", tmp.sum().item())

cols = [0, 1, 2]
for step in range(2):
    picked = torch.tensor([c * 2 for c in cols], device=device)
    cols = [c + 1 for c in cols]
    print("comprehension", picked.tolist())

for step in range(2):
    torch.manual_seed(123)
    noise = torch.randn(2, device=device)
    print("reseeded", [round(v, 5) for v in noise.tolist()])
