# corpus: runnable
# Program context managers entered every iteration whose `__enter__` / `__exit__` (or the code
# around a `yield` in a `contextmanager` generator) change program state the loop's factories read.
import contextlib

import torch

torch.set_num_threads(1)
PHASE = {"k": 0}


@contextlib.contextmanager
def phase():
    PHASE["k"] += 1
    yield
    PHASE["k"] += 10


ks = []
for step in range(3):
    with phase():
        t = torch.tensor(PHASE["k"])
        ks.append(int(t))
print("contextmanager", ks)


class Timer:
    ticks = [0.0]

    def __enter__(self):
        Timer.ticks[0] += 1.5
        return self

    def __exit__(self, *exc):
        return False


vals = []
timer = Timer()
for step in range(3):
    with timer:
        pass
    v = torch.full((2,), Timer.ticks[0])
    vals.append(v.tolist())
print("__enter__", vals)

stack_vals = []
for step in range(3):
    with contextlib.ExitStack() as stack:
        stack.enter_context(phase())
    s = torch.tensor(float(PHASE["k"]))
    stack_vals.append(float(s))
print("ExitStack", stack_vals)
