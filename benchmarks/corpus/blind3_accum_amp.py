# corpus: runnable
"""Mixed precision with gradient accumulation (autocast + GradScaler, disabled on CPU), a
warmup-cosine schedule, plus a second phase that sums micro-batch losses and calls
backward once on the sum (a pattern from multi-task training)."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
use_amp = device.type == "cuda"
accum_steps, micro_bs, total_steps, warmup = 4, 16, 40, 5

X = torch.randn(2048, 32)
Y = (X[:, :4].sum(1) > 0).long()
model = nn.Sequential(nn.Linear(32, 128), nn.GELU(), nn.Linear(128, 2)).to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
scaler = torch.amp.GradScaler("cuda", enabled=use_amp)


def lr_lambda(step):
    if step < warmup:
        return (step + 1) / warmup
    progress = (step - warmup) / max(1, total_steps - warmup)
    return 0.5 * (1 + math.cos(math.pi * progress))


scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lr_lambda)
log_loss = 0.0
ptr = 0
for step in range(total_steps):
    for micro in range(accum_steps):
        xb = X[ptr:ptr + micro_bs].to(device, non_blocking=True)  # paef: ok pageable-transfer
        yb = Y[ptr:ptr + micro_bs].to(device, non_blocking=True)  # paef: ok pageable-transfer
        ptr = (ptr + micro_bs) % len(X)
        with torch.autocast(device_type=device.type, dtype=torch.float16, enabled=use_amp):
            loss = F.cross_entropy(model(xb), yb) / accum_steps
        scaler.scale(loss).backward()
        log_loss += loss  # paef: expect-fix graph-retention
    scaler.unscale_(optimizer)
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    scaler.step(optimizer)
    scaler.update()
    optimizer.zero_grad(set_to_none=True)
    scheduler.step()
    if (step + 1) % 10 == 0:
        print(f"step {step + 1} loss {float(log_loss) / 10:.4f} lr {scheduler.get_last_lr()[0]:.5f}")
        log_loss = 0.0

aux_head = nn.Linear(32, 1).to(device)
opt2 = torch.optim.SGD(list(model.parameters()) + list(aux_head.parameters()), lr=1e-2)
for step in range(10):
    total = 0
    for micro in range(accum_steps):
        xb = X[micro * micro_bs:(micro + 1) * micro_bs].to(device)  # paef: ok pageable-transfer; ok redundant-tensor
        yb = Y[micro * micro_bs:(micro + 1) * micro_bs].to(device)  # paef: ok pageable-transfer; ok redundant-tensor
        total = total + F.cross_entropy(model(xb), yb) + 0.1 * aux_head(xb).pow(2).mean()  # paef: refuse graph-retention
    opt2.zero_grad()
    (total / accum_steps).backward()
    opt2.step()
print(f"phase 2 final {total.item() / accum_steps:.4f}")
