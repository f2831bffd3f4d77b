# corpus: runnable
# Red team 51 probe (NOT blind: written after first contact, aimed at the host-sync running-total proof):
# the running total is read inside the loop by expressions taken from a config dict and evaluated with
# eval() (a config-driven logger), and by a frame-inspecting helper (`sys._getframe(1).f_locals`).
import sys

import torch
import torch.nn as nn

torch.manual_seed(5114)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

g = torch.Generator().manual_seed(64)
X = torch.randn(40, 3, generator=g)
Y = X.prod(1, keepdim=True) + X[:, :1]
model = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
cfg = {'log_every': 2, 'log_expr': "f'mean so far {total / (step + 1)}'"}


def show(name):
    print(name, '=', sys._getframe(1).f_locals[name])


for epoch in range(2):
    total = 0.0
    for step, i in enumerate(range(0, 40, 8)):
        loss = nn.functional.mse_loss(model(X[i:i + 8].to(device)), Y[i:i + 8].to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
        if step % cfg['log_every'] == 0:
            print(eval(cfg['log_expr']))
    print('epoch', epoch, total)


def run_epoch():
    acc = 0.0
    for i in range(0, 40, 8):
        loss = nn.functional.mse_loss(model(X[i:i + 8].to(device)), Y[i:i + 8].to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        acc += loss.item()
        show('acc')
    return acc


print('helper', run_epoch())
