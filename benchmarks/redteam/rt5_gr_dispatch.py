# corpus: runnable
# Losses summed over a few micro-batches, then back-propagated through a call the analysis
# has to follow: getattr dispatch, a dict of lambdas, functools.partial, a helper defined
# after its use, a subclass override, a decorator.
import functools

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(4)]


def run_steps(finish):
    for epoch in range(2):
        total = 0
        for xb, yb in data:
            xb, yb = xb.to(device), yb.to(device)
            loss = nn.functional.mse_loss(model(xb), yb)
            total += loss
        opt.zero_grad()
        finish(total)
        opt.step()
    print([round(v, 5) for v in model.weight.detach().flatten().tolist()])


# 1. getattr dispatch
def by_getattr():
    for epoch in range(2):
        total = 0
        for xb, yb in data:
            xb, yb = xb.to(device), yb.to(device)
            loss = nn.functional.mse_loss(model(xb), yb)
            total += loss
        opt.zero_grad()
        getattr(total, "backward")()
        opt.step()
    print("getattr", [round(v, 5) for v in model.weight.detach().flatten().tolist()])


by_getattr()

# 2. dict of lambdas
ACTIONS = {"bw": lambda t: t.backward(), "noop": lambda t: None}
run_steps(ACTIONS["bw"])

# 3. functools.partial
run_steps(functools.partial(torch.autograd.backward))


# 4. helper defined after use, called through a name bound later
def by_late_helper():
    for epoch in range(2):
        sums = []
        for xb, yb in data:
            xb, yb = xb.to(device), yb.to(device)
            loss = nn.functional.mse_loss(model(xb), yb)
            sums.append(loss)
        opt.zero_grad()
        apply_grads(sums)
        opt.step()
    print("late", [round(v, 5) for v in model.weight.detach().flatten().tolist()])


def apply_grads(items):
    torch.stack(items).mean().backward()


by_late_helper()


# 5. subclass override
class Trainer:
    def finish(self, total):
        pass

    def epoch(self):
        total = 0.0
        for xb, yb in data:
            xb, yb = xb.to(device), yb.to(device)
            loss = nn.functional.mse_loss(model(xb), yb)
            total = total + loss
        opt.zero_grad()
        self.finish(total)
        opt.step()
        return total


class GradTrainer(Trainer):
    def finish(self, total):
        total.backward()


t = GradTrainer()
t.epoch()
t.epoch()
print("override", [round(v, 5) for v in model.weight.detach().flatten().tolist()])


# 6. decorated backward
def logged(fn):
    @functools.wraps(fn)
    def inner(*a):
        return fn(*a)
    return inner


@logged
def step_on(total):
    total.backward()


run_steps(step_on)
