# corpus: runnable
# A factory whose arguments bind a name with `:=`, a hoisted name that collides with a later use,
# a factory reading a name a `with` or `except` binds, a factory in a loop of an async function.
import asyncio

import torch

out = []
for step in range(3):
    w = torch.tensor([(k := 2), 3.0])
    k += step
    out.append((w.tolist(), k))
print(out)

tensor_const = "user value"
out = []
for step in range(2):
    out.append(torch.tensor([1.0, 2.0]).sum().item())
print(out, tensor_const)


def read_const():
    return tensor_const


out = []
for step in range(2):
    z = torch.zeros(2) + step
    out.append((z.tolist(), read_const()))
print(out)


async def evaluate():
    got = []
    for step in range(2):
        base = torch.ones(3)
        await asyncio.sleep(0)
        got.append(base.sum().item())
    return got


print(asyncio.run(evaluate()))

out = []
for step in range(3):
    try:
        if step == 1:
            raise ValueError("x")
        n = 2
    except ValueError as err:
        n = len(str(err)) + 3
    out.append(torch.arange(n).sum().item())
print(out)
