# corpus: runnable
# Program functions reached through callables a library made of them: `torch.no_grad()(f)`,
# `functools.lru_cache(maxsize=None)(f)` on a changing argument, `torch.func.vmap(f)`,
# `torch.enable_grad()(f)`, `functools.partial(f)` called through `map`. Each changes a table
# the loop's factories read.
import functools

import torch

torch.set_num_threads(1)
CFG = {"k": 1}


def bump(x=None):
    CFG["k"] += 1
    return x


quiet = torch.no_grad()(bump)
out = []
for step in range(3):
    t = torch.tensor(CFG["k"])
    quiet()
    out.append(int(t))
print("no_grad()(f)", out)

cached = functools.lru_cache(maxsize=None)(bump)
out = []
for step in range(3):
    t = torch.tensor(CFG["k"])
    cached(step)
    out.append(int(t))
print("lru_cache(f)", out)


def add_k(v):
    CFG["k"] += 1
    return v * 2


vm = torch.func.vmap(add_k)
out = []
for step in range(3):
    t = torch.tensor(CFG["k"])
    vm(torch.ones(2))
    out.append(int(t))
print("vmap(f)", out)

loud = torch.enable_grad()(bump)
out = []
for step in range(3):
    t = torch.full((1,), CFG["k"])
    loud()
    out.append(t.tolist())
print("enable_grad()(f)", out)

p = functools.partial(bump, None)
out = []
for step in range(3):
    t = torch.tensor(CFG["k"])
    list(map(lambda _: p(), [0]))
    out.append(int(t))
print("partial via map", out)
