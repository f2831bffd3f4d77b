# corpus: runnable
# Red team 50 probe (NOT blind, written after first contact): a param group bound to a name before the loop and
# read per step to build tensors, while a library scheduler or a helper writing through `for g in opt.param_groups`
# changes it.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5052)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

X = torch.randn(32, 3)
Y = X.sum(1, keepdim=True)
model = nn.Linear(3, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1, weight_decay=0.01)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
grp = opt.param_groups[0]
for it in range(6):
    lr_t = torch.full((1,), grp['lr'])
    loss = F.mse_loss(model(X[it * 4:(it + 1) * 4].to(device)), Y[it * 4:(it + 1) * 4].to(device)) * (1 + lr_t.to(device))
    opt.zero_grad()
    loss.sum().backward()
    opt.step()
    sched.step()
    print('steplr', it, f'{loss.item():.10f}', lr_t.tolist())


def set_wd(o, wd):
    for g in o.param_groups:
        g['weight_decay'] = wd


hp = opt.param_groups[0]
for it in range(4):
    wd_t = torch.tensor(hp['weight_decay'])
    set_wd(opt, 0.01 * (it + 2))
    print('wd', it, f'{wd_t.item():.6f}')
