# corpus: runnable
"""Metric learning with batch-hard triplet mining written row by row; Recall@1 evaluation under no_grad."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
n_classes, per_class, dim = 8, 16, 12
centers = torch.randn(n_classes, dim) * 2
X = (centers.repeat_interleave(per_class, 0) + torch.randn(n_classes * per_class, dim)).to(device)
Y = torch.arange(n_classes).repeat_interleave(per_class).to(device)  # paef: ok cpu-then-move


class Embedder(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, 32), nn.ReLU(), nn.Linear(32, 8))

    def forward(self, x):
        e = self.net(x)
        return e / e.norm(dim=1, keepdim=True)  # paef: ok operator-fusion


def batch_hard_triplet(emb, labels, margin=0.3):
    dist = torch.cdist(emb, emb)
    losses = []
    for i in range(emb.size(0)):  # paef: expect elementwise-loop
        same = labels == labels[i]
        hardest_pos = dist[i][same].max()
        hardest_neg = dist[i][~same].min()
        losses.append(F.relu(hardest_pos - hardest_neg + margin))
    return torch.stack(losses).mean()  # paef: ok list-to-tensor


model = Embedder().to(device)
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
for epoch in range(4):
    perm = torch.randperm(X.size(0), device=device)
    for b in range(0, X.size(0), 32):
        idx = perm[b : b + 32]
        loss = batch_hard_triplet(model(X[idx]), Y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        e = model(X)
        d = torch.cdist(e, e)
        d.fill_diagonal_(float("inf"))
        r1 = (Y[d.argmin(1)] == Y).float().mean().item()
    model.train()
    print(f"epoch {epoch} loss {loss.item():.4f} recall@1 {r1:.4f}")
