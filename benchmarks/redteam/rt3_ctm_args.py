# corpus: runnable
# `.to(...)` moves whose argument is not a device: another tensor, a dtype held in a variable,
# dtype and device together, a factory given `**opts` that already names the device, a legacy
# `torch.Tensor(list)`, `copy=True`.
import torch

torch.manual_seed(0)
device = torch.device("cpu")
ref = torch.randn(2, dtype=torch.float64)
half = torch.float16
opts = {"device": "cpu", "dtype": torch.float32}
for step in range(2):
    a = torch.arange(3).to(ref)
    print(a.dtype, a)
    b = torch.zeros(3).to(half)
    print(b.dtype)
    c = torch.ones(3).to(device, torch.float64)
    print(c.dtype)
    d = torch.zeros(3, **opts).to(device)
    print(d)
    e = torch.Tensor([1, 2]).to(device)
    print(e.dtype, e)
    f = torch.arange(4).to(ref.dtype)
    print(f.dtype)
    g = torch.linspace(0, 1, 3).to(device=device, dtype=torch.float16)
    print(g.dtype)
    dev = ref
    h = torch.ones(2).to(dev)
    print(h.dtype)
    k = torch.full((2,), 3).to(device, copy=True)
    print(k.dtype, k)


def place(x, device):
    return torch.arange(3).to(device)


print(place(None, torch.float64).dtype)
