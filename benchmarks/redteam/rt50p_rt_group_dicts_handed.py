# corpus: runnable
# Red team 50 probe (NOT blind, written after first contact): param-group dicts written by the program and handed
# to the optimizer (the constructor's list, `add_param_group`) are the optimizer's own groups: a scheduler stepped
# per batch changes them, and per-step tensors are built from them. Also a hand scheduler object holding the
# config dict changes it from its own method.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5053)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

X = torch.randn(32, 3)
Y = X.sum(1, keepdim=True)
body = nn.Linear(3, 4).to(device)
head = nn.Linear(4, 1).to(device)
body_group = {'params': list(body.parameters()), 'lr': 0.1}
head_group = {'params': list(head.parameters()), 'lr': 0.2}
opt = torch.optim.SGD([body_group], lr=0.1)
opt.add_param_group(head_group)
sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.7)
for it in range(6):
    xb, yb = X[it * 4:(it + 1) * 4].to(device), Y[it * 4:(it + 1) * 4].to(device)
    body_scale = torch.full((1,), body_group['lr'])
    head_scale = torch.tensor(head_group['lr'])
    loss = F.mse_loss(head(torch.tanh(body(xb))), yb)
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    print('groups', it, f'{loss.item():.10f}', f'{body_scale.item():.8f}', f'{head_scale.item():.8f}')


class DecaySchedule:
    def __init__(self, cfg):
        self.cfg = cfg

    def step(self):
        self.cfg['wd'] = self.cfg['wd'] * 2


cfg = {'wd': 1e-3}
wd_sched = DecaySchedule(cfg)
for epoch in range(3):
    for it in range(2):
        wd_t = torch.full((1,), cfg['wd'])
        print('wd', epoch, it, f'{wd_t.item():.6f}')
    wd_sched.step()
