# corpus: runnable
# Element loops whose per-element work goes through closures, `functools.partial`, a lambda
# with a default argument, a running `nonlocal` counter, a generator, `break` and `else`.
import functools

import torch

torch.manual_seed(0)
torch.set_num_threads(1)
t = torch.randn(6)


def affine(v, a, b):
    return a * v + b


f = functools.partial(affine, a=2.0, b=1.0)
out = torch.zeros(6)
for i in range(len(t)):
    out[i] = f(t[i])
print("partial", [round(v, 5) for v in out.tolist()])

calls = 0


def counted(v):
    global calls
    calls += 1
    return v * 3


out2 = torch.zeros(6)
for i in range(len(t)):
    out2[i] = counted(t[i])
print("counted", calls, [round(v, 5) for v in out2.tolist()])

scale = 1.0
fns = [lambda v, s=scale: v * s]
scale = 5.0
out3 = torch.zeros(6)
for i in range(len(t)):
    out3[i] = fns[0](t[i]) + scale
print("lambda default", [round(v, 5) for v in out3.tolist()])

out4 = torch.zeros(6)
for i in range(len(t)):
    if t[i] > 1.5:
        break
    out4[i] = t[i] * 2
else:
    out4 -= 1
print("break/else", [round(v, 5) for v in out4.tolist()])


def gen():
    for k in range(100):
        yield float(k)


g = gen()
out5 = torch.zeros(6)
for i in range(len(t)):
    out5[i] = t[i] + next(g)
print("generator", [round(v, 5) for v in out5.tolist()])

out6 = torch.zeros(6)
for i in range(1, len(t)):
    out6[i] = out6[i - 1] * 0.5 + t[i]
print("recurrence", [round(v, 5) for v in out6.tolist()])
