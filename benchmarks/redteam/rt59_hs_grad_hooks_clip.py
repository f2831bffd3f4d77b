# corpus: runnable
# Red team 59 (blind): gradient monitoring and clipping done with tensor hooks instead of after backward(). Each
# parameter gets `p.register_hook(...)` hooks registered once before training: one adds the squared gradient norm
# and a count of non-finite entries into a small per-step stats tensor (a global the loop re-creates every step),
# one records the per-parameter norm with .item() into a Python list, and one clips each gradient to an adaptive
# threshold that the loop derives from the recent norms (a float average of the list). The loop reads the stats
# tensor after backward to decide whether to skip the step.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5902)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

N, D = 512, 12
w_true = torch.randn(D, 1)
X = torch.randn(N, D)
Y = X @ w_true + 0.1 * torch.randn(N, 1)
Y[::37] += 8.0  # a few outliers make some gradients spike
X, Y = X.to(device), Y.to(device)

model = nn.Sequential(nn.Linear(D, 24), nn.Tanh(), nn.Linear(24, 1)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

clip_at = [10.0]
norm_log = []
stats = None


def accumulate(g):
    stats[0] += g.pow(2).sum()
    stats[1] += (~torch.isfinite(g)).sum()
    return g


def record(g):
    norm_log.append(g.norm().item())


def clip(g):
    return g.clamp(-clip_at[0], clip_at[0])


for p in model.parameters():
    p.register_hook(clip)
    p.register_hook(accumulate)
    p.register_hook(record)

skipped = 0
step_norms = []
losses = []
for epoch in range(6):
    perm = torch.randperm(N, device=device)
    for i in range(0, N, 32):
        idx = perm[i:i + 32]
        stats = torch.zeros(2, device=device)
        opt.zero_grad()
        loss = F.mse_loss(model(X[idx]), Y[idx])
        loss.backward()
        if stats[1] > 0:
            skipped += 1
            continue
        step_norms.append(stats[0].sqrt())
        opt.step()
        losses.append(loss.item())
        recent = norm_log[-40:]
        clip_at[0] = 2.0 * sum(recent) / len(recent)

all_norms = torch.tensor(norm_log)
print("skipped", skipped, "clip", round(clip_at[0], 5))
print("norm mean", round(all_norms.mean().item(), 5), "max", round(max(norm_log), 5))
print("step norm", round(torch.stack(step_norms).mean().item(), 5))
print("loss", round(sum(losses[-16:]) / 16, 5))
print("checksum", round(math.fsum(p.detach().sum().item() for p in model.parameters()), 5))
