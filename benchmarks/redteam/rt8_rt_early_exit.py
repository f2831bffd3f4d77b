# corpus: runnable
# Factories inside loops that stop early or skip: a `while` loop that ends before its first
# pass for an empty queue, a search that `return`s from the first iteration before the factory
# with an invalid size, a generator closed after one item, an exception raised by a validation
# step before the buffer is built.
import torch

torch.manual_seed(0)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"

queue = []
width = -1
while queue:
    item = queue.pop()
    pad = torch.zeros(width, device=device)
    print(item, pad)
print("queue done")


def first_match(rows, need):
    for r in rows:
        if r == need:
            return r
        scratch = torch.ones(need - 3, device=device)
        print("scan", scratch.shape)
    return None


print("match", first_match([2, 5], 2))


def stream(n, size):
    for i in range(n):
        yield i
        buf = torch.zeros(size, device=device)
        print("buf", buf.shape)


g = stream(3, -2)
print("first", next(g))
g.close()


def validate(batch):
    if batch < 0:
        raise ValueError("bad batch")


caught = []
for b in [-1, -2]:
    try:
        validate(b)
        mask = torch.ones(b, device=device)
        caught.append(mask.numel())
    except ValueError as err:
        caught.append(str(err))
print(caught)
