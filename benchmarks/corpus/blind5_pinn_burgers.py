# corpus: runnable
"""A physics-informed network for the viscous Burgers equation u_t + u u_x = nu u_xx on
[-1, 1] x [0, 1]: collocation points are redrawn every step, derivatives come from
torch.autograd.grad with create_graph, and the PDE residual on a test grid is reported in
evaluation (which needs gradients even though the model is in eval mode)."""
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
NU = 0.01 / math.pi


class MLP(nn.Module):
    def __init__(self, width=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, width), nn.Tanh(), nn.Linear(width, width), nn.Tanh(), nn.Linear(width, 1))

    def forward(self, x, t):
        return self.net(torch.cat([x, t], 1))


def residual(model, x, t):
    x.requires_grad_(True)
    t.requires_grad_(True)
    u = model(x, t)
    u_x, u_t = torch.autograd.grad(u.sum(), (x, t), create_graph=True)
    u_xx = torch.autograd.grad(u_x.sum(), x, create_graph=True)[0]
    return u_t + u * u_x - NU * u_xx


model = MLP().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
history = []
for step in range(100):
    x_f = torch.rand(128, 1, device=device) * 2 - 1
    t_f = torch.rand(128, 1, device=device)
    x_0 = torch.linspace(-1, 1, 64).view(-1, 1).to(device)  # paef: expect redundant-tensor; ok cpu-then-move
    t_0 = torch.zeros_like(x_0)  # paef: ok redundant-tensor
    t_b = torch.rand(32, 1, device=device)
    x_b = torch.cat([torch.full((16, 1), -1.0), torch.full((16, 1), 1.0)]).to(device)  # paef: expect redundant-tensor; ok cpu-then-move
    loss_f = residual(model, x_f, t_f).pow(2).mean()
    loss_0 = (model(x_0, t_0) + torch.sin(math.pi * x_0)).pow(2).mean()
    loss_b = model(x_b, t_b).pow(2).mean()
    loss = loss_f + loss_0 + loss_b
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    history.append(loss.item())  # paef: expect host-sync
    if step % 50 == 0:
        print(f"step {step} loss {history[-1]:.5f}")

model.eval()
grid_x = torch.linspace(-1, 1, 40, device=device).repeat(10).view(-1, 1)
grid_t = torch.linspace(0, 1, 10, device=device).repeat_interleave(40).view(-1, 1)
res_max = torch.zeros((), device=device)
for xs, ts in zip(grid_x.split(100), grid_t.split(100)):  # paef: refuse eval-without-no-grad
    r = residual(model, xs.clone(), ts.clone()).detach()
    res_max = torch.maximum(res_max, r.abs().max())
print(f"final loss {history[-1]:.5f} max residual {res_max.item():.4f}")
