# corpus: runnable
"""Self-training with pseudo-labels and a per-sample confidence weight: the confidences and a
calibrated score are read element by element with `.item()` in comprehensions whose lists go
straight back into tensors on the device, every step. Near-misses: a comprehension over host
numbers, one over the lengths of Python lists, and a per-epoch report."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def calibrate(p, temperature=1.5):
    return 1.0 / (1.0 + math.exp(-(p - 0.5) * temperature))


x_lab = torch.randn(128, 10)
y_lab = (x_lab[:, 0] > 0).long()
x_unl = torch.randn(256, 10)
model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 2)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
class_weights = [1.0, 1.2]
bucket_sizes = [[0] * 3, [0] * 5]

for epoch in range(4):
    for i in range(0, 256, 32):
        xu = x_unl[i : i + 32].to(device)
        xl, yl = x_lab[i % 128 : i % 128 + 32].to(device), y_lab[i % 128 : i % 128 + 32].to(device)
        with torch.no_grad():
            probs = F.softmax(model(xu), 1)
        conf, pseudo = probs.max(1)
        weights = torch.tensor([c.item() for c in conf], device=device)  # paef: expect host-sync; expect list-to-tensor; ok ping-pong
        scores = torch.tensor([calibrate(v.item()) for v in conf], device=device)  # paef: expect host-sync; ok list-to-tensor; ok ping-pong
        cw = torch.tensor([class_weights[c] for c in range(2)], device=device)  # paef: ok redundant-tensor; ok list-to-tensor
        sizes = torch.tensor([len(b) for b in bucket_sizes], device=device)  # paef: ok redundant-tensor; ok list-to-tensor
        loss_u = (weights * scores * F.cross_entropy(model(xu), pseudo, reduction="none")).mean()
        loss_l = F.cross_entropy(model(xl), yl, weight=cw)
        loss = loss_l + 0.5 * loss_u
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f} buckets {sizes.tolist()} mean conf {weights.mean().item():.3f}")
