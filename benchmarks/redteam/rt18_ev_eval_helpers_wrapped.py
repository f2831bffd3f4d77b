# corpus: runnable
# Evaluation loops reached through decorators, `functools.partial`, a context manager and a
# generator, where the wrapper (not the loop) turns grad mode back on or back-propagates: a
# decorator that fine-tunes after each call, a context manager whose exit trains on what the loop
# produced, a partial of a function that takes a `train` flag.
import contextlib
import functools
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(0)
model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
xs = [torch.randn(4, 3) for _ in range(3)]


def adapt(fn):
    @functools.wraps(fn)
    def inner(x):
        out = fn(x)
        if out.requires_grad:
            opt.zero_grad()
            out.pow(2).mean().backward()
            opt.step()
        return out

    return inner


@adapt
def predict(x):
    return model(x)


model.eval()
scores = []
for x in xs:
    scores.append(round(predict(x).sum().item(), 5))
print("A deco", scores)

kept = []


@contextlib.contextmanager
def finetune():
    yield
    opt.zero_grad()
    torch.stack([k.sum() for k in kept]).sum().backward()
    opt.step()


with finetune():
    for x in xs:
        kept.append(model(x))
print("B cm", [round(p.sum().item(), 5) for p in model.parameters()])


def run(x, train):
    y = model(x)
    if train:
        opt.zero_grad()
        y.sum().backward()
        opt.step()
    return y


step = functools.partial(run, train=True)
res = []
for x in xs:
    res.append(round(step(x).sum().item(), 5))
print("C partial", res)
