# corpus: runnable
# Red team 50 (blind): optimizers written by hand. A `torch.optim.Optimizer` subclass (Adam with decoupled weight
# decay, bias corrections from `math` and from a tensor step counter kept in the state dict), a momentum SGD
# written with `torch._foreach_*` calls over lists, a per-step gate built from a constant ramp that an in-place
# module (`nn.LeakyReLU(inplace=True)`) and `torch._foreach_mul_` change, and a running loss total.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5001)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'


class HandAdamW(torch.optim.Optimizer):
    def __init__(self, params, lr=1e-2, betas=(0.9, 0.99), eps=1e-8, weight_decay=0.01):
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay))

    @torch.no_grad()
    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            b1, b2 = group['betas']
            for p in group['params']:
                if p.grad is None:
                    continue
                state = self.state[p]
                if not state:
                    state['step'] = torch.zeros(())
                    state['m'] = torch.zeros_like(p)
                    state['v'] = torch.zeros_like(p)
                state['step'] += 1
                t = state['step'].item()
                p.mul_(1 - group['lr'] * group['weight_decay'])
                state['m'].mul_(b1).add_(p.grad, alpha=1 - b1)
                state['v'].mul_(b2).addcmul_(p.grad, p.grad, value=1 - b2)
                bc1 = 1 - b1 ** t
                bc2 = torch.sqrt(1 - torch.tensor(b2) ** state['step'])
                denom = (state['v'].sqrt() / bc2).add_(group['eps'])
                p.addcdiv_(state['m'], denom, value=-group['lr'] / bc1)
        return loss


X = torch.randn(64, 5)
W_true = torch.tensor([[0.5], [-1.0], [2.0], [0.0], [0.25]])
Y = X @ W_true + 0.1 * torch.randn(64, 1)

model = nn.Sequential(nn.Linear(5, 8), nn.Tanh(), nn.Linear(8, 1)).to(device)
opt = HandAdamW(model.parameters(), lr=2e-2)
total = 0.0
for epoch in range(3):
    for i in range(0, 64, 16):
        xb, yb = X[i:i + 16].to(device), Y[i:i + 16].to(device)
        loss = F.mse_loss(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    print('adamw', epoch, f'{total:.10f}', opt.state[model[0].weight]['step'].item())

# momentum SGD written with foreach calls; the velocity buffers are lists the calls change in place
model2 = nn.Linear(5, 1).to(device)
params = list(model2.parameters())
velocity = [torch.zeros_like(p) for p in params]
act = nn.LeakyReLU(0.2, inplace=True)
for step in range(12):
    xb, yb = X[(step % 4) * 16:(step % 4 + 1) * 16].to(device), Y[(step % 4) * 16:(step % 4 + 1) * 16].to(device)
    ramp = torch.linspace(-1.0, 1.0, 5)
    gate = act(ramp).to(device)
    loss = F.mse_loss(model2(xb * gate), yb)
    model2.zero_grad()
    loss.backward()
    with torch.no_grad():
        grads = [p.grad for p in params]
        torch._foreach_mul_(velocity, 0.9)
        torch._foreach_add_(velocity, grads)
        torch._foreach_add_(params, velocity, alpha=-0.05)
    scale = torch.ones(5)
    torch._foreach_mul_([scale], 0.5)
    print('foreach', step, f'{loss.item():.10f}', gate.tolist(), scale.sum().item())

# a per-step noise buffer filled in place by a random init function, and a DropConnect mask dropped in place
model3 = nn.Linear(5, 1).to(device)
opt3 = torch.optim.SGD(model3.parameters(), lr=0.05)
for step in range(6):
    jitter = torch.zeros(5)
    nn.init.uniform_(jitter[:2], -0.1, 0.1)
    keep = torch.ones(5)
    F.dropout(keep, 0.4, True, True)
    xb = (X[:16] * keep + jitter).to(device)
    loss = F.mse_loss(model3(xb), Y[:16].to(device))
    opt3.zero_grad()
    loss.backward()
    opt3.step()
    print('jitter', step, f'{loss.item():.10f}', [round(v, 8) for v in jitter.tolist()], keep.tolist())
print('bias', [f'{v:.8f}' for v in model.state_dict()['2.bias'].tolist()])
