# corpus: runnable
# Red team 50 (blind): learning-rate schedules written by hand. Warmup then cosine computed with `math` and
# written into every `param_group['lr']` through the loop variable of `for g in opt.param_groups`, a scheduler
# stepped per batch whose rate is read back per step, a hand weight decay whose strength lives in a config dict
# changed by `.update()`, and per-step tensors built from these values to scale the update.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5003)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

X = torch.randn(60, 3)
Y = X.sum(1, keepdim=True).sin()
model = nn.Sequential(nn.Linear(3, 8), nn.GELU(), nn.Linear(8, 1)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.0, momentum=0.9)
cfg = {'base_lr': 0.1, 'warmup': 4, 'total': 15, 'wd': 1e-3}

step = 0
log = []
for epoch in range(3):
    for i in range(0, 60, 12):
        if step < cfg['warmup']:
            lr = cfg['base_lr'] * (step + 1) / cfg['warmup']
        else:
            prog = (step - cfg['warmup']) / max(1, cfg['total'] - cfg['warmup'])
            lr = 0.5 * cfg['base_lr'] * (1 + math.cos(math.pi * prog))
        for g in opt.param_groups:
            g['lr'] = lr
        xb, yb = X[i:i + 12].to(device), Y[i:i + 12].to(device)
        loss = F.mse_loss(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        # weight decay applied by hand, scaled by the rate the group holds now
        lr_now = torch.tensor(opt.param_groups[0]['lr'])
        decay = torch.full((1,), cfg['wd']) * lr_now
        with torch.no_grad():
            for p in model.parameters():
                p.mul_(1 - decay.to(device))
        opt.step()
        step += 1
        log.append(lr_now)
    cfg.update(wd=cfg['wd'] * 10)
    print('warmup-cosine', epoch, f'{loss.item():.10f}', [f'{v.item():.6f}' for v in log[-5:]])

# a library scheduler stepped per batch; the rate read back every step to weight an auxiliary term
model2 = nn.Linear(3, 1).to(device)
opt2 = torch.optim.Adam(model2.parameters(), lr=0.05)
sched = torch.optim.lr_scheduler.OneCycleLR(opt2, max_lr=0.05, total_steps=10)
for it in range(10):
    xb, yb = X[(it % 5) * 12:(it % 5 + 1) * 12].to(device), Y[(it % 5) * 12:(it % 5 + 1) * 12].to(device)
    lr_t = torch.tensor(sched.get_last_lr()[0])
    reg = lr_t * sum(p.pow(2).sum() for p in model2.parameters()).cpu()
    loss = F.mse_loss(model2(xb), yb) + reg.to(device)
    opt2.zero_grad()
    loss.backward()
    opt2.step()
    sched.step()
    print('onecycle', it, f'{loss.item():.10f}', f'{lr_t.item():.8f}')


# a trainer object whose rate a callback anneals through a method
class Annealer:
    def __init__(self, lr):
        self.lr = lr

    def on_epoch_end(self):
        self.lr *= 0.5


ann = Annealer(0.2)
callbacks = [ann.on_epoch_end]
w = torch.zeros(3, 1, device=device, requires_grad=True)
for epoch in range(3):
    for i in range(0, 60, 20):
        xb, yb = X[i:i + 20].to(device), Y[i:i + 20].to(device)
        loss = F.mse_loss(xb @ w, yb)
        (gw,) = torch.autograd.grad(loss, [w])
        rate = torch.tensor([ann.lr], device=device)
        with torch.no_grad():
            w -= rate * gw
    for cb in callbacks:
        cb()
    print('annealer', epoch, f'{loss.item():.10f}', f'{rate.item():.6f}', [f'{v:.8f}' for v in w.flatten().tolist()])
