# corpus: runnable
import torch
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1))
xs = [torch.randn(3, 4, requires_grad=True) for _ in range(3)]
sal = []
for x in xs:
    out = model(x).sum()
    g, = torch.autograd.grad(out, x)
    sal.append(g.abs().mean().item())
print(sal)
penalties = []
for x in xs:
    y = model(x)
    gp = torch.autograd.functional.jacobian(lambda z: model(z).sum(), x)
    penalties.append(gp.norm().item())
print(penalties)
