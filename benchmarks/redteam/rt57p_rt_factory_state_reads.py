# corpus: runnable
# Red team 57 probe (not blind): tensors built inside the loop from Python state that other calls change
# between iterations: the lr read from param_groups after `sched.step()`, a meter's running average, a
# config dict decayed by a helper, a global list of class weights scaled by a callback, a NumPy count array
# updated with np.add.at, the size of a vocabulary grown per batch, the length of a history; each looks like a
# loop-invariant factory and none is.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5723)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

g = torch.Generator().manual_seed(5723)
X = torch.randn(96, 4, generator=g)
Y = torch.randint(0, 3, (96,), generator=g)
words = ['a', 'b', 'c', 'd', 'e', 'f', 'g']
model = nn.Linear(4, 3).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.2)
sched = torch.optim.lr_scheduler.StepLR(opt, 3, 0.5)


class Meter:
    def __init__(self):
        self.avg, self.n = 0.0, 0

    def update(self, v):
        self.n += 1
        self.avg += (v - self.avg) / self.n


cfg = {'smooth': 0.2}
CLASS_WEIGHTS = [1.0, 1.0, 1.0]
seen = np.zeros(3)
vocab = {}
history = []


def decay(step):
    cfg['smooth'] *= 0.8
    CLASS_WEIGHTS[step % 3] *= 1.1


meter = Meter()
acc = torch.zeros((), device=device)
for step in range(12):
    i = step * 8
    xb, yb = X[i:i + 8].to(device), Y[i:i + 8].to(device)
    w = torch.tensor(CLASS_WEIGHTS, device=device)
    smooth = torch.full((3,), cfg['smooth'] / 3, device=device)
    target = F.one_hot(yb, 3).float() * (1 - cfg['smooth']) + smooth
    loss = -(w[yb] * (target * F.log_softmax(model(xb), 1)).sum(1)).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    decay(step)
    meter.update(loss.item())
    np.add.at(seen, yb.cpu().numpy(), 1)
    vocab.setdefault(words[step % 7], len(vocab))
    history.append(step)
    lr_t = torch.tensor(opt.param_groups[0]['lr'], device=device)
    avg_t = torch.tensor(meter.avg, device=device)
    seen_t = torch.tensor(seen, device=device)
    ids = torch.arange(len(vocab), device=device)
    steps = torch.arange(len(history), device=device)
    acc = acc + lr_t * avg_t + seen_t.sum() + ids.sum() + steps.sum()
print(f'acc {acc.item():.6f} lr {opt.param_groups[0]["lr"]:.6f} avg {meter.avg:.8f} seen {seen.tolist()}')
print('checksum', round(acc.item() + meter.avg, 6))
