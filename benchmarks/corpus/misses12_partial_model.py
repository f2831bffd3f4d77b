# corpus: runnable
"""Models built through `functools.partial` (a config picks the architecture, the partial fixes
its widths, the script calls it for each seed) and through a dict of partials. The validation
loop runs the model with autograd on and counts its hits with `.item()` on every batch.
Near-misses: a partial of a plain function (a learning-rate schedule), a partial of an
optimizer class, and a validation loop already under `torch.no_grad()`."""
from functools import partial

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class MLP(nn.Module):
    def __init__(self, in_dim, hidden, n_classes, dropout=0.1):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(), nn.Dropout(dropout), nn.Linear(hidden, n_classes))

    def forward(self, x):
        return self.net(x)


def warmup_cosine(step, warmup, total):
    if step < warmup:
        return (step + 1) / warmup
    return 0.5 * (1 + torch.cos(torch.tensor((step - warmup) / max(total - warmup, 1) * 3.14159)).item())


X = torch.randn(600, 20)
Y = (X[:, :4].sum(1) > 0).long() + (X[:, 4] > 1).long()
train_loader = DataLoader(TensorDataset(X[:480], Y[:480]), batch_size=32, shuffle=True, pin_memory=torch.cuda.is_available())
val_loader = DataLoader(TensorDataset(X[480:], Y[480:]), batch_size=60, pin_memory=torch.cuda.is_available())

ARCHS = {"small": partial(MLP, hidden=32), "wide": partial(MLP, hidden=128, dropout=0.2)}
model_fn = partial(ARCHS["small"], in_dim=20, n_classes=3)
make_opt = partial(torch.optim.AdamW, lr=3e-3, weight_decay=1e-4)
schedule = partial(warmup_cosine, warmup=10, total=45)

for seed in range(2):
    torch.manual_seed(seed)
    model = model_fn().to(device)
    opt = make_opt(model.parameters())
    sched = torch.optim.lr_scheduler.LambdaLR(opt, schedule)
    for epoch in range(3):
        model.train()
        for x, y in train_loader:
            x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
            loss = nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
        model.eval()
        correct = 0
        for x, y in val_loader:  # paef: expect eval-without-no-grad
            x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
            out = model(x)
            correct += (out.argmax(1) == y).sum().item()  # paef: ok host-sync
        print(f"seed {seed} epoch {epoch} val acc {correct / 120:.3f}")

wide = ARCHS["wide"](in_dim=20, n_classes=3).to(device)
opt = make_opt(wide.parameters())
for epoch in range(2):
    wide.train()
    for x, y in train_loader:
        x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
        loss = nn.functional.cross_entropy(wide(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    wide.eval()
    hits = torch.zeros((), dtype=torch.long, device=device)
    with torch.no_grad():
        for x, y in val_loader:
            x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
            hits += (wide(x).argmax(1) == y).sum()
    print(f"wide epoch {epoch} val acc {hits.item() / 120:.3f}")
