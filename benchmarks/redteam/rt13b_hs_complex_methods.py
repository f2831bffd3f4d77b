# corpus: runnable
# Wave 2: complex tensors made by methods (`x.cfloat()`, `x.cdouble()`, `x.to(torch.cfloat)` through a
# name, `x.type(dtype)`), summed by `.item()` in a training loop with a device.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(4, 4).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
xs = torch.randn(4, 2, 4).to(device)
ctype = getattr(torch, "c" + "float")
a = b = c = 0.0
for x in xs:
    out = model(x)
    loss = out.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    z = out.detach().cfloat() * (1 + out.detach().cfloat().roll(1, -1) * 1)
    a += (z * z.roll(1, -1)).mean().item()
    w = out.detach().to(ctype)
    b += (w * w).sum().item()
    c += out.detach().cdouble().sqrt().mean().item()
print("complex", a, b, c)
