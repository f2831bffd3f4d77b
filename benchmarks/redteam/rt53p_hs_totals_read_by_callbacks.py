# corpus: runnable
# Red team 53 probe (not blind): running totals of .item() reads that are read INSIDE their loop only through
# a function called there (a nested closure, a module-level function reading the global, a lambda, a
# nonlocal accumulator), and integer counts printed as ints after the loop.
import torch

torch.manual_seed(5322)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

W = torch.randn(6, 1, device=device, requires_grad=True)
opt = torch.optim.SGD([W], lr=0.05)
X = torch.randn(120, 6, device=device)
Y = X @ torch.arange(6.0, device=device)[:, None] + 0.1
seen = []

running = 0.0


def report(step):
    seen.append(round(running / (step + 1), 6))


for step in range(12):
    xb, yb = X[step * 10:(step + 1) * 10], Y[step * 10:(step + 1) * 10]
    loss = ((xb @ W - yb) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    running += loss.item()
    if step % 4 == 3:
        report(step)


def train_nested():
    total = 0.0
    peek = lambda: seen.append(round(total, 6))
    for step in range(12):
        xb, yb = X[step * 10:(step + 1) * 10], Y[step * 10:(step + 1) * 10]
        loss = ((xb @ W - yb) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
        if step % 6 == 5:
            peek()
    return total


def train_nonlocal():
    acc = 0.0

    def add(v):
        nonlocal acc
        acc += v

    def show():
        seen.append(round(acc, 6))

    for step in range(6):
        loss = ((X[:10] @ W - Y[:10]) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        add(loss.item())
        show()
    return acc


t1 = train_nested()
t2 = train_nonlocal()
hits = 0
for step in range(12):
    hits += (X[step * 10:(step + 1) * 10, 0] > 0).sum().item()
print(seen)
print(round(running, 6), round(t1, 6), round(t2, 6), hits, type(hits).__name__)
