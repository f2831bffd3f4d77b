# corpus: runnable
# Red team 62 (blind): a tiny conv net on made-up 1x12x12 "images" trained with hand-written CutMix and random
# erasing. Each batch draws a box from NumPy (coordinates on the host), a partner order from a torch.Generator
# seeded from the step, and an erasing decision per sample (`torch.rand(B, 1, 1, 1)`). The paste mask is a
# ones tensor with the box zeroed in place. The validation pass uses a fixed-seed generator rebuilt every
# epoch, so every epoch validates on the same augmented copies.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(6203)
rng = np.random.default_rng(6203)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

N, H, W, C, BS = 150, 12, 12, 3, 24
protos = torch.randn(C, 1, H, W)
ys = torch.randint(0, C, (N,))
xs = protos[ys] + 0.8 * torch.randn(N, 1, H, W)
val_x, val_y = xs[:30].to(device), ys[:30].to(device)
tr_x, tr_y = xs[30:].to(device), ys[30:].to(device)

net = nn.Sequential(nn.Conv2d(1, 6, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(3), nn.Flatten(),
                    nn.Linear(54, C)).to(device)
opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)


def rand_box(lam):
    cut = np.sqrt(1.0 - lam)
    ch, cw = int(H * cut), int(W * cut)
    cy, cx = rng.integers(H), rng.integers(W)
    y1, y2 = np.clip(cy - ch // 2, 0, H), np.clip(cy + ch // 2, 0, H)
    x1, x2 = np.clip(cx - cw // 2, 0, W), np.clip(cx + cw // 2, 0, W)
    return int(y1), int(y2), int(x1), int(x2)


step, val_scores, lams = 0, [], []
for epoch in range(3):
    net.train()
    for start in range(0, len(tr_x), BS):
        x, y = tr_x[start:start + BS], tr_y[start:start + BS]
        B = x.shape[0]
        g = torch.Generator().manual_seed(1000 + step)
        partner = torch.randperm(B, generator=g).to(device)
        lam = rng.beta(1.0, 1.0)
        y1, y2, x1, x2 = rand_box(lam)
        keep = torch.ones(B, 1, H, W, device=device)
        keep[:, :, y1:y2, x1:x2] = 0
        x = x * keep + x[partner] * (1 - keep)
        lam_adj = 1 - (y2 - y1) * (x2 - x1) / (H * W)
        erase = (torch.rand(B, 1, 1, 1, device=device) < 0.25).float()
        x = x * (1 - erase) + erase * torch.randn_like(x) * 0.1
        out = net(x)
        loss = lam_adj * F.cross_entropy(out, y) + (1 - lam_adj) * F.cross_entropy(out, y[partner])
        opt.zero_grad()
        loss.backward()
        opt.step()
        lams.append(round(lam_adj, 4))
        step += 1
    net.eval()
    vg = torch.Generator()
    vg.manual_seed(77)
    with torch.no_grad():
        shift = torch.randint(-1, 2, (2,), generator=vg).tolist()
        noisy = torch.roll(val_x, shifts=tuple(shift), dims=(2, 3))
        noisy = noisy + 0.2 * torch.randn(noisy.shape, generator=vg).to(device)
        val_scores.append(round((net(noisy).argmax(1) == val_y).float().mean().item(), 5))

print("val", val_scores)
print("lams", lams[:5], len(lams))
print("checksum", round(sum(val_scores) + sum(lams), 5))
