# corpus: runnable
# Second wave on helpers keeping state in their defaults: a keyword-only default dict, a
# default changed by a nested function, a default handed to `setattr`, a method's default.
import torch

torch.set_num_threads(1)


def count(*, seen={}):
    seen["n"] = seen.get("n", 0) + 1
    return [float(seen["n"])]


def nested(box=[0]):
    def inc():
        box[0] += 1

    inc()
    return [float(box[0])]


class Obj:
    pass


def tag(o=Obj()):
    setattr(o, "k", getattr(o, "k", 0) + 1)
    return [float(o.k)]


class Helper:
    def step(self, acc=[]):
        acc.append(1.0)
        return list(acc)


h = Helper()
out = []
for i in range(3):
    a = torch.tensor(count())
    b = torch.tensor(nested())
    c = torch.tensor(tag())
    d = torch.tensor(h.step())
    out.append((a.tolist(), b.tolist(), c.tolist(), d.tolist()))
print("defaults", out)
