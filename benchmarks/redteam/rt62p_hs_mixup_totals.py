# corpus: runnable
# Red team 62 probe (not blind): running totals of a mixup loop read back with `.item()`: weighted by a
# NumPy lambda (a float64 scalar, or a one-element array from `size=1`), by a lambda read from a Beta
# sample, an integer count weighted by lambda, a total the step skips (`continue`) or stops on (`break`),
# a total read by the `else:` of the loop, and one compared with a threshold inside the loop.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

np_rng = np.random.default_rng(6213)
torch.manual_seed(6213)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

N, D, C, BS = 120, 6, 3, 20
cent = torch.randn(C, D) * 1.5
y_all = torch.randint(0, C, (N,))
x_all = (cent[y_all] + torch.randn(N, D)).to(device)
y_all = y_all.to(device)
model = nn.Sequential(nn.Linear(D, 16), nn.ReLU(), nn.Linear(16, C)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
beta = torch.distributions.Beta(torch.tensor([0.4]), torch.tensor([0.4]))


def mixed_step(x, y, lam):
    perm = torch.randperm(x.size(0), device=device)
    out = model(lam * x + (1 - lam) * x[perm])
    loss = lam * F.cross_entropy(out, y) + (1 - lam) * F.cross_entropy(out, y[perm])
    opt.zero_grad()
    loss.backward()
    opt.step()
    return out, loss, perm


report = []
for epoch in range(3):
    weighted, arr_total, counted, kept_total, beta_total, alarm = 0.0, 0.0, 0.0, 0.0, 0.0, 0
    order = torch.randperm(N, device=device)
    for s in range(0, N, BS):
        idx = order[s:s + BS]
        x, y = x_all[idx], y_all[idx]
        lam = np_rng.beta(0.4, 0.4)
        lam_arr = np_rng.beta(0.4, 0.4, size=1)
        out, loss, perm = mixed_step(x, y, float(lam))
        weighted += lam * loss.item()
        arr_total += lam_arr * loss.item()
        pred = out.argmax(1)
        counted += lam * (pred == y).sum().item() + (1 - lam) * (pred == y[perm]).sum().item()
        lam_t = beta.sample()
        beta_total += lam_t.item() * loss.item()
        if lam < 0.02:
            continue
        kept_total += loss.item()
        if kept_total > 3.0:
            alarm += 1
        if not np.isfinite(kept_total):
            break
    else:
        report.append(round(kept_total, 5))
    report.append((round(weighted, 5), round(float(arr_total[0]) if isinstance(arr_total, np.ndarray) else arr_total, 5),
                   round(counted / N, 5), round(beta_total, 5), alarm))

print("report", report)
print("checksum", round(sum(r if isinstance(r, float) else sum(r) for r in report), 5))
