# corpus: runnable
# A two-layer message-passing network on a fixed toy graph: neighbour sums by `index_add_`,
# degree counts by `scatter_add_` / `put_(accumulate=True)` / `index_put_`, per-step aggregation
# buffers of a constant size, a max aggregation by `scatter_reduce_`, class histograms in
# evaluation, and the same scatters reached through other spellings (the unbound method, a
# helper, `torch.index_put_`, `out=`).
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(8)
device = "cuda" if torch.cuda.is_available() else "cpu"
N, Fdim, C = 10, 4, 3
src = torch.tensor([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 2, 4, 6, 8])
dst = torch.tensor([1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 5, 7, 9, 1, 3])
feats = torch.randn(N, Fdim)
labels = torch.arange(N) % C


class Layer(nn.Module):
    def __init__(self, i, o):
        super().__init__()
        self.lin = nn.Linear(i, o)

    def forward(self, h):
        agg = torch.zeros(N, h.size(1), device=h.device)
        agg.index_add_(0, dst.to(h.device), h[src.to(h.device)])
        deg = torch.zeros(N, device=h.device)
        deg.scatter_add_(0, dst.to(h.device), torch.ones(dst.numel(), device=h.device))
        return self.lin(agg / deg.clamp(min=1).unsqueeze(1) + h)


model = nn.Sequential(Layer(Fdim, 8), nn.ReLU(), Layer(8, C)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
x, y = feats.to(device), labels.to(device)
total = 0.0
for step in range(6):
    out = model(x)
    loss = F.cross_entropy(out, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    total += loss.item()
print("gnn", repr(total))

# the aggregation written in the loop body with a constant-size buffer, several spellings
stats = []
for step in range(4):
    h = model[0].lin(x).detach()
    agg = torch.zeros(N, 8)
    torch.Tensor.index_add_(agg, 0, dst, h[src])
    deg = torch.zeros(N)
    deg.put_(dst, torch.ones(dst.numel()), accumulate=True)
    mx = torch.zeros(N, 8)
    mx.scatter_reduce_(0, dst.unsqueeze(1).expand(-1, 8), h[src], reduce="amax", include_self=True)
    stats.append((agg.sum().item(), deg.sum().item(), mx.sum().item()))
print("spellings", stats[-1], len(stats))


def add_messages(buf, index, msg):
    buf.index_add_(0, index, msg)
    return buf


acc_hist = []
for step in range(3):
    buf = torch.zeros(N, 8)
    add_messages(buf, dst, model[0].lin(x).detach()[src])
    pair = torch.zeros(N, N)
    torch.index_put_(pair, (src, dst), torch.ones(src.numel()), accumulate=True)
    both = torch.zeros(N)
    torch.add(both, pair.sum(1), out=both)
    acc_hist.append(buf.abs().sum().item() + pair.sum().item() + both.sum().item())
print("helpers", [round(a, 4) for a in acc_hist])

# a degree histogram through a NumPy view of a per-step buffer
np_hist = []
for step in range(3):
    counts = torch.zeros(N)
    np.add.at(counts.numpy(), dst.numpy(), 1.0)
    np_hist.append(counts.max().item())
print("numpy view", np_hist)

# evaluation: predicted-class histogram and per-class correct counts
model.eval()
hist = torch.zeros(C, dtype=torch.long)
per_class = torch.zeros(C)
for rep in range(3):
    pred = model(x + 0.1 * rep).argmax(1).cpu()
    hist.scatter_add_(0, pred, torch.ones_like(pred))
    per_class.index_add_(0, labels, (pred == labels).float())
print("eval", hist.tolist(), per_class.tolist(), torch.bincount(pred, minlength=C).tolist())
