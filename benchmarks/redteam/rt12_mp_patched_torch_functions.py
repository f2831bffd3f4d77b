# corpus: runnable
# torch functions replaced by the program: `torch.relu`/`F.relu` swapped for a clipped ReLU in an
# experiment, `torch.stack` wrapped to count, `torch.zeros` replaced to a float64 factory.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
x = torch.randn(5, 4) * 10

torch.relu = lambda t: t.clamp(0, 6)
F.relu = lambda t, inplace=False: t.clamp(0, 6)
torch.Tensor.relu = lambda t: t.clamp(0, 6)
h = x * (x > 0)
h2 = torch.where(x > 0, x, torch.zeros_like(x))
h3 = torch.max(x, torch.zeros_like(x))
print("relu", h.sum().item(), h2.sum().item(), h3.sum().item())

calls = []
_stack = torch.stack


def counted_stack(ts, dim=0):
    calls.append(len(ts))
    return _stack(ts, dim) * 0 + 1


torch.stack = counted_stack
vals = []
for row in x:
    vals.append(row.sum().item())
t = torch.tensor(vals)
print("stack", t.tolist(), calls)
torch.stack = _stack

_zeros = torch.zeros
torch.zeros = lambda *s, **k: _zeros(*s, **{**k, "dtype": torch.float64})
buf = torch.zeros(4).to("cpu")
print("zeros", buf.dtype)
torch.zeros = _zeros
