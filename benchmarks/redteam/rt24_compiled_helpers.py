# corpus: runnable
# Red team 24: helpers reached through `torch.compile(fn, backend="eager")`, `torch.jit.script`,
# `functools.wraps` decorators and a dataclass whose `__post_init__` changes the tensor it is given
import functools
from dataclasses import dataclass

import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(24)
device = "cuda" if torch.cuda.is_available() else "cpu"


def bump_(t):
    t.add_(1.0)
    return t


compiled_bump = torch.compile(bump_, backend="eager")


@torch.jit.script
def scripted_bump(t: torch.Tensor) -> torch.Tensor:
    t.mul_(2.0)
    return t


def logged(fn):
    @functools.wraps(fn)
    def inner(*args):
        return fn(*args)
    return inner


@logged
def wrapped_bump(t):
    t.sub_(0.5)
    return t


@dataclass
class Stats:
    running: torch.Tensor

    def __post_init__(self) -> None:
        self.running.add_(3.0)


model = nn.Linear(3, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
log = []
for step in range(3):
    a = compiled_bump(torch.zeros(3, device=device))
    b = scripted_bump(torch.ones(3, device=device))
    c = wrapped_bump(torch.ones(3, device=device))
    s = Stats(torch.zeros(3, device=device))
    x = torch.randn(4, 3, device=device) + a + b + c + s.running
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    log.append(round(loss.item(), 4))
    log.append(float((a + b + c + s.running).sum()))
print("compiled", log)
