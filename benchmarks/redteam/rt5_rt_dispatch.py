# corpus: runnable
# Per-step constants and noise built through indirection: functools.partial over a random
# draw, a dict of lambdas, getattr dispatch on np.random, a decorated helper that counts its
# calls, a class attribute bumped in the loop, a dataclass field changed in place, a factory
# whose result is yielded by a generator and changed by the consumer.
import functools
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
np.random.seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = nn.Linear(3, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
xs = torch.randn(6, 3)

draw = functools.partial(np.random.uniform, -0.1, 0.1, 3)
for step in range(3):
    noise = torch.tensor(draw(), dtype=torch.float32, device=device)
    loss = model(xs[step].to(device) + noise).pow(2).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("partial", step, round(loss.item(), 6))

AUG = {"jitter": lambda: np.random.normal(0, 0.1, 3), "none": lambda: np.zeros(3)}
for step in range(3):
    noise = torch.tensor(AUG["jitter"](), dtype=torch.float32, device=device)
    loss = model(xs[step].to(device) + noise).pow(2).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("dict", step, round(loss.item(), 6))

for step in range(3):
    noise = torch.tensor(getattr(np.random, "rand")(3), dtype=torch.float32, device=device)
    loss = model(xs[step].to(device) + noise).pow(2).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("getattr", step, round(loss.item(), 6))

CALLS = [0]


def counted(fn):
    def inner(*args):
        CALLS[0] += 1
        return fn(*args) * CALLS[0]
    return inner


@counted
def base_scale():
    return np.ones(3)


for step in range(3):
    scale = torch.tensor(base_scale(), dtype=torch.float32, device=device)
    loss = model(xs[step].to(device) * scale).pow(2).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("decorated", step, round(loss.item(), 6))


class Cfg:
    temperature = 1.0


for step in range(3):
    temp = torch.tensor([Cfg.temperature], device=device)
    loss = (model(xs[step].to(device)) / temp).pow(2).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    Cfg.temperature *= 0.5
    print("classattr", step, round(loss.item(), 6))


@dataclass
class State:
    buf: torch.Tensor


for step in range(3):
    st = State(torch.zeros(3, device=device))
    st.buf += xs[step].to(device)
    print("dataclass", step, st.buf.sum().item())


def make_batches(n):
    for i in range(n):
        buf = torch.ones(3, device=device)
        yield buf


kept = []
for b in make_batches(3):
    b.mul_(2)
    kept.append(b)
print("generator", [k.sum().item() for k in kept])

holders = []
for step in range(3):
    w = torch.zeros(3, device=device, requires_grad=False)
    w.requires_grad_()
    loss = (model.weight.detach() * w).sum() + w.pow(2).sum() * step
    loss.backward()
    holders.append(w.grad.clone())
print("requires_grad_", [h.tolist() for h in holders])
