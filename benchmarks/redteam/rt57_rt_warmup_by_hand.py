# corpus: runnable
# Red team 57 (blind): a hand-written linear warm-up then cosine decay written into param_groups every step,
# a GradScaler whose scale is read and logged, a per-step weight-decay tensor rebuilt from the current lr,
# a label-smoothing target built inside the loop from a Python number that changes with the epoch, and an
# lr history kept as tensors for a summary at the end.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5703)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

g = torch.Generator().manual_seed(573)
X = torch.randn(192, 10, generator=g)
Y = (X[:, :3].sum(1) + X[:, 3] * X[:, 4] > 0).long() + (X[:, 5] > 1.0).long()
model = nn.Sequential(nn.Linear(10, 32), nn.SiLU(), nn.Linear(32, 3)).to(device)
opt = torch.optim.AdamW(model.parameters(), lr=0.0, weight_decay=0.0)
scaler = torch.amp.GradScaler('cuda', enabled=(device == 'cuda'), init_scale=1024.0)

base_lr, warmup, total_steps = 0.02, 12, 96
lr_hist, scale_hist, decay_hist = [], [], []
step = 0
for epoch in range(4):
    smoothing = 0.2 / (epoch + 1)
    for i in range(0, 192, 8):
        if step < warmup:
            lr = base_lr * (step + 1) / warmup
        else:
            t = (step - warmup) / max(1, total_steps - warmup)
            lr = 0.5 * base_lr * (1 + math.cos(math.pi * t))
        for group in opt.param_groups:
            group['lr'] = lr
        xb, yb = X[i:i + 8].to(device), Y[i:i + 8].to(device)
        eye = torch.eye(3, device=device)
        target = eye[yb] * (1 - smoothing) + smoothing / 3
        logits = model(xb)
        loss = -(target * F.log_softmax(logits, 1)).sum(1).mean()
        decay = torch.tensor(lr * 0.1, device=device)
        l2 = sum((p ** 2).sum() for p in model.parameters())
        loss = loss + decay * l2
        opt.zero_grad()
        scaler.scale(loss).backward()
        scaler.unscale_(opt)
        gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        scaler.step(opt)
        scaler.update()
        lr_hist.append(torch.tensor(opt.param_groups[0]['lr']))
        scale_hist.append(scaler.get_scale() if scaler.is_enabled() else 1.0)
        decay_hist.append(decay)
        if step % 16 == 0:
            print(f'step {step} lr {lr:.6f} loss {loss.item():.6f} gn {gn.item():.5f} scale {scale_hist[-1]}')
        step += 1

lrs = torch.stack(lr_hist)
decays = torch.stack(decay_hist).cpu()
with torch.no_grad():
    acc = (model(X.to(device)).argmax(1).cpu() == Y).float().mean().item()
print(f'acc {acc:.4f} lr peak {lrs.max().item():.6f} at {lrs.argmax().item()} decay sum {decays.sum().item():.8f}')
print('checksum', round(lrs.sum().item() + decays.sum().item() + sum(scale_hist) + acc, 6))
