# corpus: runnable
# Red team 58 (blind): a bagged ensemble of small regressors trained in one loop over a list of models, each with
# its own optimizer and bootstrap sample. Per-model validation losses are read on the host each epoch, kept in a
# dict of lists keyed by model index, and turned into ensemble weights (softmax of negative losses, double
# precision). The worst member is re-initialised (its own weights rebuilt, its optimizer state dropped) when it
# lags. A snapshot of the best validation loss per member is kept as a 0-d tensor, and the combined prediction
# is weighted by those tensors.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5804)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

N, D, M = 400, 6, 4
w_true = torch.randn(D)
x = torch.randn(N, D)
y = torch.sin(x @ w_true) + 0.1 * torch.randn(N)
x_tr, y_tr, x_va, y_va = x[:300].to(device), y[:300].to(device), x[300:].to(device), y[300:].to(device)


def member():
    return nn.Sequential(nn.Linear(D, 16), nn.Tanh(), nn.Linear(16, 1)).to(device)


models = [member() for _ in range(M)]
opts = [torch.optim.Adam(mdl.parameters(), lr=1e-2) for mdl in models]
boots = [torch.randint(0, 300, (300,)) for _ in range(M)]
val_hist = {i: [] for i in range(M)}
best = {}
resets = []

for epoch in range(15):
    for i, (mdl, opt) in enumerate(zip(models, opts)):
        idx = boots[i][torch.randperm(300)[:100]]
        pred = mdl(x_tr[idx]).squeeze(-1)
        loss = F.mse_loss(pred, y_tr[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    vals = []
    for i, mdl in enumerate(models):
        with torch.no_grad():
            v = F.mse_loss(mdl(x_va).squeeze(-1), y_va)
        val_hist[i].append(v.item())
        vals.append(v.item())
        if i not in best or v.item() < best[i].item():
            best[i] = torch.tensor(v.item())
    worst = max(range(M), key=lambda i: vals[i])
    if epoch in (5, 10) and vals[worst] > 1.05 * min(vals):
        models[worst] = member()
        opts[worst] = torch.optim.Adam(models[worst].parameters(), lr=1e-2)
        best.pop(worst)
        resets.append(worst)

last = torch.tensor([val_hist[i][-1] for i in range(M)], dtype=torch.float64)
weights = torch.softmax(-last / last.min(), 0)
with torch.no_grad():
    preds = torch.stack([mdl(x_va).squeeze(-1) for mdl in models])
    inv = torch.stack([1.0 / best[i] for i in range(M)]).to(device)
    combo = (weights.to(device).float()[:, None] * preds).sum(0)
    combo_b = (inv[:, None] * preds).sum(0) / inv.sum()
print('resets', resets, 'weights', [round(w, 5) for w in weights.tolist()])
print('ens mse', round(F.mse_loss(combo, y_va).item(), 6), round(F.mse_loss(combo_b, y_va).item(), 6))
print('checksum', round(sum(sum(h) for h in val_hist.values()), 6))
