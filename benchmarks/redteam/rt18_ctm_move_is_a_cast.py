# corpus: runnable
# `.to(...)` after a factory where the argument is, or carries, a dtype: a float64 cast after
# `randn` (drawing in float64 takes other values), `arange` with a float step (the float32 range
# has other values and length), `full` of 0.1, `linspace`, a helper's parameter that callers
# pass a dtype to, a device and dtype passed together, keyword forms.
import torch

torch.set_num_threads(1)
torch.manual_seed(0)
device = torch.device("cpu")
f64 = torch.float64

a = torch.randn(3).to(device, torch.float64)
print("A randn", [repr(v) for v in a.tolist()])
b = torch.arange(0, 1, 0.1).to(device, dtype=torch.float64)
print("B arange", len(b), repr(b[-1].item()))
c = torch.full((2,), 0.1).to(device=device, dtype=f64)
print("C full", [repr(v) for v in c.tolist()])
d = torch.linspace(0, 1, 7).to(f64)
print("D linspace", [repr(v) for v in d.tolist()])


def make(n, where):
    return torch.zeros(n).to(where) + 1 / 3


print("E helper", [repr(v) for v in make(2, torch.float64).tolist()])
spec = {"device": device, "dtype": torch.float64}
e = torch.rand(2).to(**spec)
print("F kwargs", [repr(v) for v in e.tolist()])
args = (device, torch.float16)
f = torch.tensor([1 / 3, 2 / 3]).to(*args)
print("G star", [repr(v) for v in f.tolist()])
g = torch.ones(2).to(device).to(torch.float64) / 3
print("H chain", [repr(v) for v in g.tolist()])
