# corpus: runnable
# Red team 37 (blind): a value head kept in float64 for numerically stable advantage targets (built
# with the factory keyword dtype=torch.float64), and quantile bucket ids computed with
# torch.bucketize(out_int32=True). Targets are snapshotted through Python lists every step, as the
# original research code did to "freeze" them.
import torch
import torch.nn as nn

torch.manual_seed(5)
torch.set_num_threads(1)

body = nn.Linear(6, 8)
head = nn.Linear(8, 1, dtype=torch.float64)
opt = torch.optim.Adam(list(body.parameters()) + list(head.parameters()), lr=1e-2)
edges = torch.linspace(-1.0, 1.0, 5)
x = torch.randn(32, 6)
y = torch.randn(32, 1, dtype=torch.float64)

for step in range(5):
    feats = torch.tanh(body(x))
    v = head(feats.double())
    target = torch.tensor(v.detach().cpu().tolist())
    buckets = torch.bucketize(feats[:, 0].detach(), edges, out_int32=True)
    ids = torch.tensor(buckets.cpu().tolist())
    snapshot = torch.tensor(y.numpy().tolist())
    loss = ((v - y) ** 2).mean() + 0.1 * ((v.float() - target) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.12f}", target.dtype, ids.dtype, snapshot.dtype,
          f"{target.sum().item():.12f}", ids.bincount(minlength=6).tolist(),
          (ids * 2**31 - 1).max().item())
