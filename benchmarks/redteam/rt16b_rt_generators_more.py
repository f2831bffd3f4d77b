# corpus: runnable
# Second wave on loops that yield: `yield from` a sub-generator, a factory in a helper the
# yielding loop calls, a `while` loop that yields, an async generator driven by asyncio.
import asyncio

import torch

torch.set_num_threads(1)
CFG = {"k": 1.0}


def sub():
    yield 0


def relay(n):
    for i in range(n):
        t = torch.tensor(CFG["k"])
        yield from sub()
        yield float(t)


out = []
for v in relay(3):
    out.append(v)
    CFG["k"] += 1
print("yield from", out)


def current():
    return torch.full((2,), CFG["k"])


def steps(n):
    for i in range(n):
        yield current().tolist()


out = []
for v in steps(3):
    out.append(v)
    CFG["k"] *= 2
print("helper", out)


def forever():
    i = 0
    while i < 3:
        z = torch.zeros(int(CFG["k"]) % 5 + 1)
        yield z.numel()
        i += 1


out = []
for v in forever():
    out.append(v)
    CFG["k"] += 1
print("while", out)


async def agen(n):
    for i in range(n):
        t = torch.tensor(CFG["k"])
        await asyncio.sleep(0)
        yield float(t)


async def bump():
    for i in range(3):
        CFG["k"] += 0.5
        await asyncio.sleep(0)


async def main():
    task = asyncio.ensure_future(bump())
    got = [v async for v in agen(3)]
    await task
    return got


print("async", asyncio.run(main()))
