# corpus: runnable
# Red team 57 (blind): smoothed numbers for the log. A bias-corrected exponential moving average of the
# loss kept as a tensor on the device (`ema = beta * ema + (1 - beta) * loss.detach()`), an EMA of the
# weights updated in place after each step, a signal-to-noise estimate of the gradient from running first
# and second moments, and a "loss went up" flag computed from tensors and printed every 6 steps.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5705)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

g = torch.Generator().manual_seed(575)
X = torch.randn(144, 7, generator=g)
Y = torch.sin(X[:, :1] * 2) + 0.3 * X[:, 1:2] * X[:, 2:3]
model = nn.Sequential(nn.Linear(7, 32), nn.Tanh(), nn.Linear(32, 1)).to(device)
ema_model = [p.detach().clone() for p in model.parameters()]
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.8)

beta, decay = 0.9, 0.95
ema = torch.zeros((), device=device)
m1 = [torch.zeros_like(p) for p in model.parameters()]
m2 = [torch.zeros_like(p) for p in model.parameters()]
prev, ups, log = None, 0, []
for step in range(72):
    i = (step * 16) % 144
    xb, yb = X[i:i + 16].to(device), Y[i:i + 16].to(device)
    loss = F.mse_loss(model(xb), yb)
    opt.zero_grad()
    loss.backward()
    for a, b, p in zip(m1, m2, model.parameters()):
        a.mul_(0.9).add_(p.grad, alpha=0.1)
        b.mul_(0.9).addcmul_(p.grad, p.grad, value=0.1)
    opt.step()
    with torch.no_grad():
        for e, p in zip(ema_model, model.parameters()):
            e.mul_(decay).add_(p * (1 - decay))
    ema = beta * ema + (1 - beta) * loss.detach()
    corrected = ema / (1 - beta ** (step + 1))
    went_up = prev is not None and bool(corrected > prev)
    ups += int(went_up)
    prev = corrected
    if step % 6 == 0:
        snr = sum(((a ** 2) / (b - a ** 2 + 1e-8)).mean() for a, b in zip(m1, m2)) / len(m1)
        log.append((step, corrected.item(), snr.item()))
        print(f'step {step:2d} loss {loss.item():.6f} ema {corrected.item():.6f} snr {snr.item():.4f} up {went_up}')

with torch.no_grad():
    saved = [p.detach().clone() for p in model.parameters()]
    for p, e in zip(model.parameters(), ema_model):
        p.copy_(e)
    ema_loss = F.mse_loss(model(X.to(device)), Y.to(device)).item()
    for p, s in zip(model.parameters(), saved):
        p.copy_(s)
    raw_loss = F.mse_loss(model(X.to(device)), Y.to(device)).item()
print(f'ups {ups} raw {raw_loss:.8f} ema weights {ema_loss:.8f}')
print('checksum', round(sum(c + s for _, c, s in log) + raw_loss + ema_loss + ups, 5))
