# corpus: runnable
# Red team 62 (blind): a small classifier trained with hand-written mixup. `lam` comes from NumPy's Beta
# (a float64 on the host), the partner order from `torch.randperm(B)` per batch (the last batch is shorter).
# The "mixed accuracy" is accumulated in float64 Python arithmetic from two `.item()` counts weighted by lam;
# the loss is logged every few steps, and a step is skipped (and counted) when lam is too extreme.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

np.random.seed(6202)
torch.manual_seed(6202)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

N, D, C, BS, ALPHA = 230, 10, 4, 32, 0.4
centers = torch.randn(C, D) * 2
labels = torch.randint(0, C, (N,))
feats = centers[labels] + torch.randn(N, D)
feats, labels = feats.to(device), labels.to(device)

model = nn.Sequential(nn.Linear(D, 32), nn.ReLU(), nn.Linear(32, C)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=3e-3)

log, skipped, lam_sum = [], 0, 0.0
for epoch in range(4):
    order = torch.randperm(N, device=device)
    mixed_correct, running, n_seen = 0.0, 0.0, 0
    for start in range(0, N, BS):
        idx = order[start:start + BS]
        x, y = feats[idx], labels[idx]
        B = x.size(0)
        lam = float(np.random.beta(ALPHA, ALPHA))
        if min(lam, 1 - lam) < 1e-3:
            skipped += 1
            continue
        partner = torch.randperm(B, device=device)
        x_mix = lam * x + (1 - lam) * x[partner]
        out = model(x_mix)
        loss = lam * F.cross_entropy(out, y) + (1 - lam) * F.cross_entropy(out, y[partner])
        opt.zero_grad()
        loss.backward()
        opt.step()
        pred = out.argmax(1)
        mixed_correct += lam * (pred == y).sum().item() + (1 - lam) * (pred == y[partner]).sum().item()
        running += loss.item()
        n_seen += B
        lam_sum += lam
        if (start // BS) % 3 == 0:
            log.append(f"{epoch}:{start // BS}:{loss.item():.4f}")
    print(f"epoch {epoch} mixed-acc {mixed_correct / n_seen:.6f} loss {running:.5f}")

with torch.no_grad():
    acc = (model(feats).argmax(1) == labels).float().mean().item()
print("log", log[:6], len(log))
print("skipped", skipped, "lam_sum", round(lam_sum, 6))
print("checksum", round(acc + lam_sum + len(log), 6))
