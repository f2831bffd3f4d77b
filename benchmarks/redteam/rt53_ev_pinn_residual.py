# corpus: runnable
# Red team 53 (blind): a physics-informed network for u'' + u = 0 on [0, pi] with u(0)=0, u'(0)=1
# (solution sin x). The residual needs the derivatives of the OUTPUT w.r.t. the INPUT, taken with
# torch.autograd.grad(create_graph=True). The loss weights are rebalanced every 20 steps from the sizes of
# the two terms read with .item(); the collocation points are resampled where the residual is largest.
# After training the model is switched to eval and the residual is measured at test points: that needs the
# input's graph even though nothing is trained there.
import math

import torch
import torch.nn as nn

torch.manual_seed(5302)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(1, 24), nn.Tanh(), nn.Linear(24, 24), nn.Tanh(), nn.Linear(24, 1))

    def forward(self, x):
        return self.body(x)


def derivatives(model, x):
    x = x.requires_grad_(True)
    u = model(x)
    du, = torch.autograd.grad(u.sum(), x, create_graph=True)
    d2u, = torch.autograd.grad(du.sum(), x, create_graph=True)
    return u, du, d2u


net = Net().to(device)
opt = torch.optim.Adam(net.parameters(), lr=0.01)
pts = torch.rand(64, 1, device=device) * math.pi
x0 = torch.zeros(1, 1, device=device)
w_bc = 1.0
log = []
for step in range(160):
    u, du, d2u = derivatives(net, pts.clone())
    res = d2u + u
    u0, du0, _ = derivatives(net, x0.clone())
    loss_pde = (res ** 2).mean()
    loss_bc = (u0 ** 2).mean() + ((du0 - 1.0) ** 2).mean()
    loss = loss_pde + w_bc * loss_bc
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 20 == 19:
        ratio = loss_pde.item() / max(loss_bc.item(), 1e-8)
        w_bc = min(max(w_bc * math.sqrt(ratio), 0.5), 20.0)
        worst = res.detach().abs().squeeze(1).topk(16).indices
        fresh = torch.rand(48, 1, device=device) * math.pi
        pts = torch.cat([pts[worst].detach(), fresh])
        log.append((step, round(loss.item(), 6), round(w_bc, 6)))

net.eval()
test = torch.linspace(0, math.pi, 33, device=device).unsqueeze(1)
errs = []
residual_total = 0.0
for chunk in test.split(11):
    u, du, d2u = derivatives(net, chunk.clone())
    residual_total += (d2u + u).abs().sum().item()
    errs.append((u - torch.sin(chunk)).abs().max().item())

for row in log:
    print('log', row)
print('residual', round(residual_total, 6))
print('max err', [round(e, 6) for e in errs])
print('checksum', round(sum(p.double().sum().item() for p in net.parameters()), 6))
