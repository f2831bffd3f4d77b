# corpus: runnable
# A physics-informed network: the residual needs du/dx, taken with `torch.autograd.grad(..., create_graph=True)`
# inside a helper; test points evaluated in a loop without `no_grad` (no backward in it), a
# `torch.func` Jacobian in a validation loop, and a plain prediction loop.
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"

net = nn.Sequential(nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 1)).to(device)
opt = torch.optim.Adam(net.parameters(), lr=1e-2)


def residual(model, x):
    u = model(x)
    du = torch.autograd.grad(u.sum(), x, create_graph=True)[0]
    return du + u


for step in range(20):
    x = torch.rand(32, 1, device=device, requires_grad=True)
    r = residual(net, x)
    bc = net(torch.zeros(1, 1, device=device)) - 1.0
    loss = r.pow(2).mean() + bc.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
print("loss", round(loss.item(), 6))

tests = [torch.linspace(0, 1, 8, device=device).reshape(-1, 1) for _ in range(3)]
err = 0.0
for t in tests:
    t = t.clone().requires_grad_(True)
    res = residual(net, t)
    err += res.abs().mean().item()
print("residual", round(err, 6))

jac_norms = []
for t in tests:
    j = torch.func.vmap(torch.func.jacrev(net))(t)
    jac_norms.append(j.norm().item())
print("jac", [round(v, 5) for v in jac_norms])

preds = []
for t in tests:
    preds.append(net(t))
P = torch.cat(preds)
print("pred", round(P.sum().item(), 5), P.requires_grad)
