# corpus: runnable
# Helpers whose decorator (a program function) changes state: the body the loop calls looks
# pure, the wrapper it really calls counts calls, grows a table or moves a schedule.
import functools

import torch

torch.set_num_threads(1)
CALLS = {"n": 0}


def counted(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        CALLS["n"] += 1
        return fn(*args, **kwargs)

    return wrapper


@counted
def forward(x):
    return x * 2


out = []
for step in range(3):
    y = forward(torch.ones(1))
    k = torch.tensor(CALLS["n"])
    out.append(int(k) + float(y))
print("counted", out)

SCHEDULE = [1.0]


def decays(rate):
    def deco(fn):
        def inner(*a):
            SCHEDULE[0] *= rate
            return fn(*a)

        return inner

    return deco


@decays(0.5)
def log_step(step):
    return step


lrs = []
for step in range(3):
    log_step(step)
    lr = torch.full((1,), SCHEDULE[0])
    lrs.append(float(lr))
print("schedule", lrs)

TABLE = []


def registered(cls):
    orig = cls.__call__

    def call(self, *a):
        TABLE.append(len(TABLE))
        return orig(self, *a)

    cls.__call__ = call
    return cls


@registered
class Metric:
    def __call__(self, v):
        return v


metric = Metric()
lens = []
for step in range(3):
    metric(step)
    t = torch.tensor(TABLE, dtype=torch.float32)
    lens.append(t.numel())
print("class decorator", lens)
