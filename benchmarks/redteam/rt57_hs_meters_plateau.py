# corpus: runnable
# Red team 57 (blind): the bookkeeping of a classification loop. An AverageMeter with update(val, n), a
# defaultdict(list) of per-step values, a log line every 5 steps, ReduceLROnPlateau stepped on the epoch's
# mean validation loss, a skip when the clipped gradient norm is not finite, and a "bad steps" counter that
# compares the running loss with the meter's average inside the loop.
import math
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5702)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'


class AverageMeter:
    def __init__(self):
        self.reset()

    def reset(self):
        self.sum, self.count, self.val = 0.0, 0, 0.0

    def update(self, val, n=1):
        self.val = val
        self.sum += val * n
        self.count += n

    @property
    def avg(self):
        return self.sum / max(self.count, 1)


g = torch.Generator().manual_seed(572)
X = torch.randn(200, 8, generator=g)
W = torch.randn(8, 4, generator=g)
Y = (X @ W + 0.5 * torch.randn(200, 4, generator=g)).argmax(1)
X[77, 3] = float('inf')
Xtr, Ytr, Xva, Yva = X[:160], Y[:160], X[160:].to(device), Y[160:].to(device)

model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 4)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.2, momentum=0.9)
plateau = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, factor=0.5, patience=1)

logs = defaultdict(list)
step, skipped, spikes = 0, 0, 0
for epoch in range(8):
    meter, acc_meter = AverageMeter(), AverageMeter()
    for i in range(0, 160, 24):
        xb, yb = Xtr[i:i + 24].to(device), Ytr[i:i + 24].to(device)
        out = model(xb)
        loss = F.cross_entropy(out, yb)
        opt.zero_grad()
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 2.0)
        if not torch.isfinite(norm):
            skipped += 1
            opt.zero_grad()
            continue
        opt.step()
        step += 1
        meter.update(loss.item(), xb.size(0))
        acc_meter.update((out.argmax(1) == yb).float().mean().item(), xb.size(0))
        logs['loss'].append(loss.item())
        logs['norm'].append(norm.item())
        logs['lr'].append(opt.param_groups[0]['lr'])
        if meter.count > 24 and loss.item() > 1.5 * meter.avg:
            spikes += 1
        if step % 5 == 0:
            print(f'step {step:3d} loss {loss.item():.6f} avg {meter.avg:.6f} norm {norm.item():.5f}')
    model.eval()
    val_total, val_n = 0.0, 0
    for j in range(0, 40, 16):
        vb = model(Xva[j:j + 16])
        val_total += F.cross_entropy(vb, Yva[j:j + 16], reduction='sum').item()
        val_n += vb.size(0)
    model.train()
    val_loss = val_total / val_n
    plateau.step(val_loss)
    logs['val'].append(val_loss)
    print(f'epoch {epoch} train {meter.avg:.6f} acc {acc_meter.avg:.4f} val {val_loss:.6f} lr {opt.param_groups[0]["lr"]:.4f}')

print('skipped', skipped, 'spikes', spikes, 'steps', step)
print('checksum', round(sum(logs['loss']) + sum(logs['norm']) + sum(logs['val']) + sum(logs['lr']), 6))
