# corpus: runnable
# State changed on exception paths: an exception class whose `__init__` grows a list the loop's
# tensor reads, `try/finally` whose `finally` rescales, an `except` in a helper, `continue` and
# `break` paths that skip the change on some iterations.
import torch

torch.set_num_threads(1)
weights = [1.0]


class Skip(Exception):
    def __init__(self, msg):
        super().__init__(msg)
        weights.append(0.5)


def check(i):
    if i % 2:
        raise Skip("odd")


got = []
for i in range(4):
    w = torch.tensor(weights)
    try:
        check(i)
    except Skip:
        pass
    got.append(w.sum().item())
print("exception init", got)

scale = [1.0]
res = []
for i in range(3):
    try:
        s = torch.tensor(scale)
        if i == 1:
            continue
    finally:
        scale[0] *= 2
    res.append(s.item())
print("finally", res)

buf = torch.zeros(2)


def safe_div(a, b):
    try:
        return a / b
    except ZeroDivisionError:
        buf.add_(1)
        return 0.0


vals = []
for i in range(3):
    snap = torch.tensor(buf.tolist())
    safe_div(1.0, i % 2)
    vals.append(snap.tolist())
print("helper except", vals)

limits = [3.0]
seen = []
for i in range(5):
    lim = torch.tensor(limits)
    if i == 3:
        break
    if i == 1:
        limits[0] = -1.0
        continue
    seen.append(lim.item())
print("break/continue", seen)
