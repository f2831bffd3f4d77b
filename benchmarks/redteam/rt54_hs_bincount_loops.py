# corpus: runnable
# Red team 54 (blind): class re-balancing driven by counts. bincount / histc / unique(return_counts=True)
# results feed Python loops, shapes (torch.zeros(int(count))), range(n.item()) and a dict keyed by tolist()
# values. Each epoch the per-class errors are counted on the device, and the sampling weights for the next
# epoch come from those counts through torch.multinomial on a CPU generator.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5402)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

g = torch.Generator().manual_seed(542)
C, N = 4, 160
y = torch.multinomial(torch.tensor([0.55, 0.25, 0.15, 0.05]), N, replacement=True, generator=g)
X = torch.randn(N, 5, generator=g) + F.one_hot(y, C).float() @ torch.randn(C, 5, generator=g)

counts = torch.bincount(y, minlength=C)
class_w = torch.zeros(C)
for c in range(C):
    if counts[c].item() > 0:
        class_w[c] = N / (C * counts[c].item())
per_class = {}
for c in range(C):
    members = torch.zeros(int(counts[c]), dtype=torch.long)
    k = 0
    for i in range(N):
        if y[i].item() == c:
            members[k] = i
            k += 1
    per_class[c] = members

model = nn.Sequential(nn.Linear(5, 16), nn.Tanh(), nn.Linear(16, C)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.2)
weights = class_w.clone()
for epoch in range(8):
    draw = torch.multinomial(weights[y], N, replacement=True, generator=g)
    errors = torch.zeros(C, device=device)
    seen = 0
    total = 0.0
    for b in range(0, N, 32):
        idx = draw[b:b + 32]
        xb, yb = X[idx].to(device), y[idx].to(device)
        out = model(xb)
        loss = F.cross_entropy(out, yb, weight=class_w.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        wrong = out.argmax(1) != yb
        errors += torch.bincount(yb[wrong], minlength=C).float()
        seen += len(idx)
        total += loss.item() * len(idx)
    n_err = errors.sum()
    boost = torch.zeros(C)
    for c in range(C):
        boost[c] = 1.0 + errors[c].item() / max(1, int(counts[c]))
    weights = class_w * boost
    print('epoch', epoch, f'{total / seen:.8f}', int(n_err.item()), [round(v, 5) for v in boost.tolist()])

with torch.no_grad():
    logits = model(X.to(device))
    pred = logits.argmax(1)
    conf = logits.softmax(1).max(1).values
vals, cnts = torch.unique(pred.cpu(), return_counts=True)
pred_hist = {v: n for v, n in zip(vals.tolist(), cnts.tolist())}
bins = torch.histc(conf.cpu(), bins=5, min=0.0, max=1.0)
cum = []
running = 0
for b in range(bins.numel()):
    running += int(bins[b].item())
    cum.append(running)
worst = []
n_wrong = (pred.cpu() != y).sum()
for j in range(n_wrong.item()):
    worst.append(j)
hard_ids = set(torch.nonzero(pred.cpu() != y).flatten().tolist())
keyed = {tuple(X[i].round(decimals=1).tolist()): int(y[i]) for i in sorted(hard_ids)[:5]}
print('pred_hist', pred_hist, 'bins', bins.tolist(), 'cum', cum, 'n_wrong', len(worst))
print('checksum', f'{conf.sum().item():.8f}', sorted(hard_ids)[:10], len(keyed))
