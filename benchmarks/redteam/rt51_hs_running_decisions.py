# corpus: runnable
# Red team 51 (blind): values read every step that decide something. A NaN guard that skips a poisoned batch,
# an exponential running average that halves the learning rate on a spike, a log line every N steps, a
# dynamic batch size chosen from the epoch's mean, a fit-until-tolerance `while` on the loss, and running
# totals built from the read loss through builtins and NumPy (log, clipped, rounded, squared).
import math

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(5106)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

g = torch.Generator().manual_seed(56)
X = torch.randn(120, 4, generator=g)
Y = (X ** 2).sum(1, keepdim=True) * 0.3 + X[:, :1]
X[37, 2] = float('nan')
model = nn.Sequential(nn.Linear(4, 16), nn.GELU(), nn.Linear(16, 1)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

bs, avg, step, skipped, halvings = 8, None, 0, 0, 0
for epoch in range(4):
    total, total_log, total_clip, total_round, total_sq, seen = 0.0, 0.0, 0.0, 0.0, 0.0, 0
    for i in range(0, len(X), bs):
        xb, yb = X[i:i + bs].to(device), Y[i:i + bs].to(device)
        loss = nn.functional.mse_loss(model(xb), yb)
        if not math.isfinite(loss.item()):
            skipped += 1
            continue
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        avg = loss.item() if avg is None else 0.9 * avg + 0.1 * loss.item()
        if loss.item() > 2.0 * avg and step > 5:
            for group in opt.param_groups:
                group['lr'] *= 0.5
            halvings += 1
        if step % 7 == 0:
            print(f'step {step:3d} loss {loss.item():.8f} avg {avg:.8f}')
        total += loss.item()
        total_log += np.log(loss.item())
        total_clip += min(loss.item(), 0.75)
        total_round += round(loss.item(), 3)
        total_sq += loss.item() ** 2
        seen += 1
    mean = total / seen
    print('epoch', epoch, 'bs', bs, repr(total), repr(total_log), repr(total_clip), repr(total_round),
          repr(total_sq), type(total_log).__name__, type(total_clip).__name__)
    bs = bs * 2 if mean < 0.5 else bs

x_small, y_small = X[:16].to(device), Y[:16].to(device)
loss = nn.functional.mse_loss(model(x_small), y_small)
iters = 0
while loss.item() > 0.05 and iters < 200:
    opt.zero_grad()
    loss.backward()
    opt.step()
    loss = nn.functional.mse_loss(model(x_small), y_small)
    iters += 1
print('converged after', iters, f'{loss.item():.10f}', 'skipped', skipped, 'halvings', halvings)
