# corpus: runnable
# Lists of per-step values turned into a tensor after the loop where a tensor per element
# would differ: some steps append a Python number instead of a `.item()`, an int list receiving
# a float item, items of different dtypes (int and float) mixed, a list reused (extended) in
# the next epoch after its tensor was built, a list read by `sum()` and `max()` as numbers.
import torch

torch.set_num_threads(1)
torch.manual_seed(0)
rows = [torch.randn(4) for _ in range(5)]

vals = []
for k, r in enumerate(rows):
    if k == 2:
        vals.append(0)
    else:
        vals.append(r.argmax().item())
print("A mixed python", torch.tensor(vals).tolist())

mix = []
for r in rows:
    mix.append(r.argmax().item())
    mix.append(r.max().item())
t = torch.tensor(mix)
print("B int+float", str(t.dtype), [repr(v) for v in t.tolist()[:4]])

hist = []
res = []
for epoch in range(2):
    for r in rows:
        hist.append(r.sum().item())
    res.append(torch.tensor(hist).mean().item())
print("C reused", [repr(v) for v in res])

ls = []
for r in rows:
    ls.append(r.min().item())
lt = torch.tensor(ls)
print("D sum max", repr(sum(ls)), repr(max(ls)), repr(lt.sum().item()), type(max(ls)).__name__)

half = []
for r in rows:
    half.append(r.half().mean().item())
ht = torch.tensor(half)
print("E half items", str(ht.dtype), [repr(v) for v in ht.tolist()])

ints = []
for r in rows:
    ints.append((r > 0).sum().item())
it = torch.tensor(ints) / 2
print("F int /", str(it.dtype), it.tolist())
