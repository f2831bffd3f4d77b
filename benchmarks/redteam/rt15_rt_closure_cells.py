# corpus: runnable
# Closure cells and caches changed by calls the loop makes: a `functools.lru_cache` helper that
# returns the same list every call (grown later), a closure whose cell is rebound by a sibling
# closure kept in an object's attribute, a default-mutable argument that accumulates.
import functools

import torch

torch.set_num_threads(1)


@functools.lru_cache(maxsize=None)
def vocab():
    return ["<pad>"]


sizes = []
for step in range(3):
    t = torch.zeros(len(vocab()))
    vocab().append(f"w{step}")
    sizes.append(t.numel())
print("vocab sizes", sizes)


def make():
    state = {"lr": 1.0}
    scale = 1.0

    def get():
        return scale

    def decay():
        nonlocal scale
        scale *= 0.5

    return get, decay


class Sched:
    pass


sched = Sched()
sched.get, sched.decay = make()
lrs = []
for step in range(3):
    lr = torch.tensor(sched.get())
    sched.decay()
    lrs.append(float(lr))
print("closure lrs", lrs)


def history(x, acc=[]):
    acc.append(x)
    return acc


hs = []
for step in range(3):
    h = torch.tensor(len(history(step)))
    hs.append(int(h))
print("mutable default", hs)
