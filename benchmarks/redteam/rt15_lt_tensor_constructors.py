# corpus: runnable
# Lists built in a loop then turned into tensors by the legacy constructors (`torch.Tensor(list)`
# always float32, `torch.LongTensor`, `torch.FloatTensor`) and by `torch.tensor` of ints, bools
# and float64 scalars: a rewrite that stacks the items keeps their own dtype instead.
import torch

torch.manual_seed(0)
torch.set_num_threads(1)
labels = torch.randint(0, 5, (6,))
probs = torch.rand(6, dtype=torch.float64)

counts = []
for lab in labels:
    counts.append(int(lab))
as_float = torch.Tensor(counts)
print("Tensor(ints)", as_float.dtype, (as_float / 2).tolist())

doubles = []
for p in probs:
    doubles.append(float(p))
single = torch.Tensor(doubles)
print("Tensor(doubles)", single.dtype, single.sum().item())

flags = []
for lab in labels:
    flags.append(bool(lab > 2))
mask = torch.tensor(flags)
print("bools", mask.dtype, mask.sum().item(), (~mask).tolist())

longs = []
for p in probs:
    longs.append(float(p) * 10)
ids = torch.LongTensor([int(v) for v in longs])
fl = torch.FloatTensor(longs)
print("legacy", ids.tolist(), fl.dtype, fl.sum().item())

ratios = []
for lab in labels:
    ratios.append(lab.item() / 3)
r = torch.tensor(ratios)
print("ratios", r.dtype, r.sum().item())

halves = []
for p in probs:
    halves.append(p.half())
h = torch.tensor([x.item() for x in halves])
print("halves", h.dtype, h.sum().item())
