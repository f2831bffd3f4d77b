# corpus: runnable
# Red team 50 probe (NOT blind, written after first contact): per-step tensors whose constant prefix could be
# hoisted while the rest of the chain depends on the step, where the rest returns the SAME storage (`.to(t)` of the
# same dtype and device, `.view(rows, -1)`, `.float()` of a float tensor) and the result is then changed in place;
# once inside a hand-written optimizer's `step` (a per-parameter gain kept in the state).
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5054)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'


class DeltaBarDelta(torch.optim.Optimizer):
    def __init__(self, params, lr=0.05):
        super().__init__(params, dict(lr=lr))

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            for p in group['params']:
                st = self.state[p]
                if 'gain' not in st:
                    st['gain'] = torch.ones(()).to(p)
                    st['prev'] = torch.zeros_like(p)
                agree = (st['prev'] * p.grad).sum() > 0
                st['gain'].mul_(1.2 if agree else 0.8)
                p.sub_(group['lr'] * st['gain'] * p.grad)
                st['prev'].copy_(p.grad)


X = torch.randn(36, 4)
Y = X[:, :1] - X[:, 1:2]
model = nn.Sequential(nn.Linear(4, 6), nn.Tanh(), nn.Linear(6, 1)).to(device)
opt = DeltaBarDelta(model.parameters())
for it in range(6):
    xb, yb = X[it * 6:(it + 1) * 6].to(device), Y[it * 6:(it + 1) * 6].to(device)
    loss = F.mse_loss(model(xb), yb)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print('dbd', it, f'{loss.item():.10f}', [f'{opt.state[p]["gain"].item():.6f}' for p in model.parameters()])

for it in range(4):
    xb = X[it * 6:(it + 1) * 6]
    rows = 2 if it % 2 else 3
    grid = torch.zeros(6).view(rows, -1)
    grid[0] += xb[0, 0]
    scale = torch.ones(4).to(xb)
    scale.mul_(1.5)
    bias = torch.full((4,), 0.25).float()[: rows]
    bias.add_(1)
    print('prefix', it, [f'{v:.6f}' for v in grid.flatten().tolist()], scale.tolist(), bias.tolist())
