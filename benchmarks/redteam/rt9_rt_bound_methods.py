# corpus: runnable
# Per-iteration buffers changed by their own bound methods called later or elsewhere: an
# `ExitStack` callback `buf.zero_`, a bound `mul_` kept in a variable, `functools.partial` of
# `add_`, a coroutine that receives the buffer with `send()` and scales it.
import contextlib
import functools

import torch

torch.manual_seed(0)
torch.set_num_threads(1)
xs = torch.randn(3, 4)

res1 = []
for x in xs:
    with contextlib.ExitStack() as stack:
        grad_buf = torch.ones(4)
        stack.callback(grad_buf.mul_, 0.5)
        res1.append(round((grad_buf * x).sum().item(), 5))
    res1.append(grad_buf.sum().item())
print("exit stack", res1)

res2 = []
for x in xs:
    scale = torch.ones(4)
    shrink = scale.mul_
    shrink(0.9)
    res2.append(round((scale * x).sum().item(), 5))
print("bound method", res2)

res3 = []
for x in xs:
    bias = torch.zeros(4)
    bump = functools.partial(bias.add_, 1.0)
    bump()
    res3.append(round((x + bias).sum().item(), 5))
print("partial", res3)


def normaliser():
    while True:
        t = yield
        t.div_(t.abs().sum() + 1.0)


norm = normaliser()
next(norm)
res4 = []
for x in xs:
    weights = torch.ones(4)
    norm.send(weights)
    res4.append(round((weights * x).sum().item(), 5))
print("coroutine", res4)
