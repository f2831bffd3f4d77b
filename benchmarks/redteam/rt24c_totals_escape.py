# corpus: runnable
# Red team 24: running sums that leave the loop before it ends: `return total` / `yield total`
# inside the loop, the `else:` of a `for`/`while` reading the total, an exception handler
# reading it after a `raise` in the loop
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(24)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
data = [torch.randn(8, 4, device=device) for _ in range(4)]


def train_until(limit):
    total = 0.0
    for xb in data:
        loss = model(xb).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
        if total > limit:
            return total
    return -1.0


def running_totals():
    total = 0.0
    for xb in data:
        loss = model(xb).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
        yield total


print("return", repr(train_until(0.5)))
print("yield", [repr(t) for t in running_totals()])

total = 0.0
for xb in data:
    loss = model(xb).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    total += loss.item()
else:
    print("for-else", repr(total))

total = 0.0
k = 0
while k < len(data):
    loss = model(data[k]).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    total += loss.item()
    k += 1
else:
    print("while-else", repr(total))


class Diverged(Exception):
    pass


total = 0.0
try:
    for xb in data:
        loss = model(xb).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
        if total > 0.1:
            raise Diverged
except Diverged:
    print("except", repr(total))
