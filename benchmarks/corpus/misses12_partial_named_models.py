# corpus: runnable
"""A ranking experiment whose models are named for their role, not "model": the scorer network is
built through `functools.partial` (a registry of partially applied constructors, as configs
produce), the baseline directly. Each is evaluated per epoch without `torch.no_grad()` and its
hits read with `.item()` per batch. Near-misses: a partial of a loss function, a partial of a
plain data-making function, and the partial-built scorer evaluated under `torch.no_grad()`."""
import functools

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Scorer(nn.Module):
    def __init__(self, n_feats, width, depth=2):
        super().__init__()
        layers, d = [], n_feats
        for _ in range(depth):
            layers += [nn.Linear(d, width), nn.ReLU()]
            d = width
        self.body = nn.Sequential(*layers)
        self.out = nn.Linear(d, 1)

    def forward(self, x):
        return self.out(self.body(x)).squeeze(-1)


def make_pairs(n, n_feats, seed):
    g = torch.Generator().manual_seed(seed)
    a, b = torch.randn(n, n_feats, generator=g), torch.randn(n, n_feats, generator=g)
    w = torch.linspace(-1, 1, n_feats)
    return a, b, ((a - b) @ w > 0).float()


REGISTRY = {"mlp2": functools.partial(Scorer, depth=2), "mlp3": functools.partial(Scorer, depth=3)}
ranking_loss = functools.partial(nn.functional.binary_cross_entropy_with_logits, reduction="mean")
pairs = functools.partial(make_pairs, n_feats=8)

train_a, train_b, train_y = pairs(512, seed=0)
val_a, val_b, val_y = pairs(128, seed=1)
batches = [(train_a[i : i + 64], train_b[i : i + 64], train_y[i : i + 64]) for i in range(0, 512, 64)]
val_batches = [(val_a[i : i + 32], val_b[i : i + 32], val_y[i : i + 32]) for i in range(0, 128, 32)]

build = REGISTRY["mlp2"]
scorer = build(8, width=32).to(device)
baseline = Scorer(8, 16, depth=1).to(device)
opt = torch.optim.Adam(list(scorer.parameters()) + list(baseline.parameters()), lr=1e-2)

for epoch in range(3):
    scorer.train()
    baseline.train()
    for a, b, y in batches:
        a, b, y = a.to(device), b.to(device), y.to(device)
        loss = ranking_loss(scorer(a) - scorer(b), y) + ranking_loss(baseline(a) - baseline(b), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    scorer.eval()
    baseline.eval()
    hits = 0
    for a, b, y in val_batches:  # paef: expect eval-without-no-grad
        a, b, y = a.to(device), b.to(device), y.to(device)
        margin = scorer(a) - scorer(b)
        hits += ((margin > 0).float() == y).sum().item()  # paef: ok host-sync
    base_hits = 0
    for a, b, y in val_batches:  # paef: expect eval-without-no-grad
        a, b, y = a.to(device), b.to(device), y.to(device)
        base_hits += (((baseline(a) - baseline(b)) > 0).float() == y).sum().item()  # paef: ok host-sync
    print(f"epoch {epoch} scorer {hits / 128:.3f} baseline {base_hits / 128:.3f}")

deep = REGISTRY["mlp3"](8, width=16).to(device)
deep.eval()
agree = torch.zeros((), device=device)
with torch.no_grad():
    for a, b, y in val_batches:
        a, b, y = a.to(device), b.to(device), y.to(device)
        agree += ((deep(a) - deep(b) > 0).float() == y).sum()
print(f"untrained deep scorer agreement {agree.item() / 128:.3f}")
