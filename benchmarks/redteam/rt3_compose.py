# corpus: runnable
# Two rewrites on the same lines: a hand-written activation inside a running sum of `.item()`,
# a constant factory inside an element loop, a hoistable factory moved to device inside a list
# of `.item()` values.
import torch

torch.manual_seed(0)
device = torch.device("cpu")
data = [torch.randn(5) for _ in range(4)]
total = 0.0
for x in data:
    total += float(torch.where(x > 0, x, 0).sum())
print(round(total, 5))

vals = []
for x in data:
    vals.append((x * torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0]).to(device)).sum().item())
print(torch.tensor(vals))

out = torch.empty(4)
for i in range(4):
    out[i] = data[i].sum() * torch.tensor(2.0)
print(out)

agg = 0.0
for x in data:
    w = torch.arange(5).float().to(device)
    agg += (x * (x > 0) * w).sum().item()
print(round(agg, 5))
