# corpus: runnable
# Per-epoch accumulators changed by code outside the loop that does not name them where it
# changes them: a helper changing an alias it takes of the global, a lambda bound before the loop,
# a helper reaching the tensor through `getattr(buf, "mul_")`, a helper changing it through
# `globals()`. Built once, each accumulator would carry over between epochs.
import torch

torch.manual_seed(0)
torch.set_num_threads(1)
xs = torch.randn(6, 3)

hist = None


def decay(x):
    buf = hist
    buf.mul_(0.5).add_(x)


r1 = []
for epoch in range(3):
    hist = torch.zeros(3)
    for x in xs[epoch:epoch + 2]:
        decay(x)
    r1.append(round(hist.sum().item(), 4))
print("alias in helper", r1)

acc = None
push = lambda x: acc.add_(x)
r2 = []
for epoch in range(3):
    acc = torch.zeros(3)
    for x in xs[epoch:epoch + 2]:
        push(x)
    r2.append(round(acc.sum().item(), 4))
print("lambda", r2)

run = None


def scale_run():
    getattr(run, "mul_")(2.0)


r3 = []
for epoch in range(3):
    run = torch.ones(3)
    scale_run()
    r3.append(round(run.sum().item(), 4))
print("getattr", r3)


def bump_named(name):
    globals()[name].add_(1.0)


r4 = []
for epoch in range(3):
    level = torch.zeros(2)
    bump_named("level")
    r4.append(round(level.sum().item(), 4))
print("globals", r4)
