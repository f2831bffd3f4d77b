# corpus: runnable
# Per-sample values read with `.item()` into a list and turned into a tensor: `torch.tensor` of
# Python floats builds the default dtype. The values come from a float64 model, a half score, and
# a phase run under `torch.set_default_dtype(torch.float64)`; stacked as tensors they would keep
# their own dtype instead.
import torch

torch.manual_seed(0)
torch.set_num_threads(1)
model = torch.nn.Linear(3, 1).double()
xs = torch.randn(6, 3, dtype=torch.float64)

per_sample = []
for x in xs:
    per_sample.append(model(x).pow(2).sum().item())
errs = torch.tensor(per_sample)
print(str(errs.dtype), repr(errs.sum().item()))

half_scores = []
for x in xs:
    half_scores.append((x.half() * 1.001).sum().item())
hs = torch.tensor(half_scores)
print(str(hs.dtype), repr((hs * 1.0001).sum().item()))

torch.set_default_dtype(torch.float64)
ys = torch.randn(4, 3).float()
vals = []
for y in ys:
    vals.append((y / 3).sum().item())
v = torch.tensor(vals)
torch.set_default_dtype(torch.float32)
print(str(v.dtype), repr(v.sum().item()))
