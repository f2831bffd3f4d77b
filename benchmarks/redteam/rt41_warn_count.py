# corpus: runnable
"""GCN-style normalisation of an adjacency with isolated nodes; numerical warnings counted per epoch."""
import warnings

import numpy as np
import torch

np.seterr(all="raise")
torch.manual_seed(0)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

adj_np = np.zeros((6, 6), dtype=np.float64)
for a, b in [(0, 1), (1, 2), (2, 3), (3, 0)]:
    adj_np[a, b] = adj_np[b, a] = 1.0


def normalize_adj(mx):
    rowsum = np.array(mx.sum(1))
    r_inv = np.power(rowsum, -0.5).flatten()
    r_inv[np.isinf(r_inv)] = 0.0
    d = np.diag(r_inv)
    return d @ mx @ d


def row_entropy(mx):
    p = mx / mx.sum(1, keepdims=True)
    return np.nansum(-p * np.log(p), axis=1)


x = torch.randn(6, 3, device=device)
lin = torch.nn.Linear(3, 2).to(device)
opt = torch.optim.Adam(lin.parameters(), lr=0.1)
n_warn = 0
skipped = 0
for epoch in range(4):
    with np.errstate(divide="ignore"):
        adj = torch.from_numpy(normalize_adj(adj_np)).float().to(device)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with np.errstate(all="warn"):
            ent = torch.from_numpy(row_entropy(adj_np)).float().to(device)
    n_warn += len(caught)
    out = adj @ lin(x)
    loss = out.pow(2).mean() + 0.01 * ent.sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    try:
        val = (out.sum() / (out.sum() - out.sum())).item()
        if val != val:
            raise FloatingPointError("nan")
    except FloatingPointError:
        skipped += 1
    print(epoch, "loss %.10f" % loss.item(), "warnings so far", n_warn)
print("skipped", skipped)
