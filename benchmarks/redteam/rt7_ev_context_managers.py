# corpus: runnable
# Evaluation-looking loops under context managers and modes that matter: a user context manager
# that turns grad mode on, `torch.autograd.set_detect_anomaly`, `torch.inference_mode(False)`, a
# `contextlib.contextmanager` that back-propagates on exit, a `with` whose `__exit__` reads
# `requires_grad` of what was collected.
import contextlib

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = nn.Linear(3, 2).to(device)
xs = [torch.randn(4, 3) for _ in range(3)]


@contextlib.contextmanager
def accumulate_grads(store):
    yield store
    torch.stack([o.sum() for o in store]).sum().backward()


model.zero_grad()
with accumulate_grads([]) as outs:
    for x in xs:
        outs.append(model(x.to(device)))
print("contextmanager", model.weight.grad.round(decimals=4).tolist())


class GradAudit:
    def __init__(self):
        self.items = []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        print("audit", [t.requires_grad for t in self.items])
        return False


with GradAudit() as audit:
    for x in xs:
        audit.items.append(model(x.to(device)))


class Tape:
    def __init__(self):
        self.log = []

    def add(self, out):
        self.log.append(out)

    def close(self):
        return torch.cat(self.log).pow(2).mean()


tape = Tape()
for x in xs:
    tape.add(model(x.to(device)))
model.zero_grad()
tape.close().backward()
print("tape", model.bias.grad.round(decimals=4).tolist())

scores = []
for x in xs:
    s = model(x.to(device)).softmax(-1)
    scores.append(s)
trace = torch.stack(scores)
print("version", trace.requires_grad, trace.grad_fn is not None)
