# corpus: runnable
"""Metric-learning toy: per epoch, anchors come from a helper that reseeds NumPy for
reproducible anchors, then the epoch's order is drawn from NumPy's global RNG; a jitter helper
reads torch's RNG through NumPy."""
import numpy as np
import torch

np.random.seed(1)
torch.manual_seed(0)
device = 'cuda' if torch.cuda.is_available() else 'cpu'


def make_anchors(n, dim):
    np.random.seed(0)  # anchors must be identical every epoch
    a = np.random.randn(n, dim).astype(np.float32)
    return a / np.linalg.norm(a, axis=1, keepdims=True)


def jittered_grid(n):
    base = np.linspace(-1.0, 1.0, n, dtype=np.float32)
    return base + 0.01 * torch.rand(n).numpy()


feats = np.random.randn(12, 3).astype(np.float32)
proj = torch.zeros(3, 3, requires_grad=True, device=device)
with torch.no_grad():
    proj += torch.eye(3, device=device)
opt = torch.optim.SGD([proj], lr=0.05)
for epoch in range(3):
    anchors = torch.from_numpy(make_anchors(4, 3)).to(device)
    grid = torch.from_numpy(jittered_grid(4)).to(device)
    order = np.random.permutation(len(feats))
    batch = torch.from_numpy(feats[order[:6]]).to(device)
    emb = batch @ proj
    sim = emb @ anchors.t() + grid
    loss = -torch.log_softmax(sim, dim=1)[:, 0].mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"epoch {epoch} order {order[:6].tolist()} loss {loss.item():.10f}")
print("final np draw", np.random.rand(2).tolist(), "torch draw", torch.rand(2).tolist())
