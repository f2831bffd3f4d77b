# corpus: runnable
"""Fine-tuning loop with gradient accumulation, autocast + GradScaler, clipping and a warmup scheduler."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
use_amp = device.type == "cuda"

accum_steps = 4
max_grad_norm = 1.0
epochs = 2

features = torch.randn(256, 20)
targets = (features[:, :3].sum(1) > 0).long()
train_ds = TensorDataset(features[:192], targets[:192])
val_ds = TensorDataset(features[192:], targets[192:])
train_loader = DataLoader(train_ds, batch_size=16, shuffle=True, num_workers=0, pin_memory=True, drop_last=True)
val_loader = DataLoader(val_ds, batch_size=64, shuffle=False, pin_memory=True)

model = nn.Sequential(nn.Linear(20, 64), nn.GELU(), nn.LayerNorm(64), nn.Linear(64, 2)).to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.01)
total_steps = epochs * len(train_loader) // accum_steps
scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda s: min(1.0, (s + 1) / 3) * max(0.0, 1 - s / total_steps))
scaler = torch.amp.GradScaler("cuda", enabled=use_amp)
grad_norms = []

for epoch in range(epochs):
    model.train()
    epoch_loss = torch.zeros((), device=device)
    optimizer.zero_grad(set_to_none=True)
    for step, (x, y) in enumerate(train_loader):
        x = x.to(device, non_blocking=True)
        y = y.to(device, non_blocking=True)
        with torch.autocast(device_type=device.type, dtype=torch.float16, enabled=use_amp):
            logits = model(x)
            loss = F.cross_entropy(logits, y) / accum_steps
        scaler.scale(loss).backward()
        epoch_loss += loss.detach()
        if (step + 1) % accum_steps == 0:
            scaler.unscale_(optimizer)
            norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_grad_norm)
            scaler.step(optimizer)
            scaler.update()
            optimizer.zero_grad(set_to_none=True)
            scheduler.step()
            grad_norms.append(norm.item())  # paef: ok host-sync
        if step % 8 == 0:
            print(f"epoch {epoch} step {step} loss {loss.item() * accum_steps:.4f}")

    model.eval()
    correct = torch.zeros((), dtype=torch.long, device=device)
    with torch.no_grad():
        for x, y in val_loader:
            x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
            with torch.autocast(device_type=device.type, dtype=torch.float16, enabled=use_amp):
                logits = model(x)
            correct += (logits.argmax(-1) == y).sum()
    print(f"epoch {epoch} train loss {epoch_loss.item() * accum_steps / len(train_loader):.4f} val acc {correct.item() / len(val_ds):.4f}")
print(f"mean grad norm {sum(grad_norms) / len(grad_norms):.4f}")
