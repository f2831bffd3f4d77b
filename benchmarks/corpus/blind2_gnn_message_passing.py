# corpus: runnable
"""Hand-written GCN message passing on a synthetic graph; the normalised adjacency is rebuilt every epoch."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

np.random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

N, C, F_IN = 60, 3, 8
labels_np = np.random.randint(0, C, N)
features_np = np.eye(C)[labels_np] @ np.random.randn(C, F_IN) + 0.5 * np.random.randn(N, F_IN)
src, dst = [], []
for i in range(N):
    for j in range(N):
        if i != j and np.random.rand() < (0.15 if labels_np[i] == labels_np[j] else 0.02):
            src.append(i)
            dst.append(j)
edge_index = torch.tensor([src, dst], dtype=torch.long).to(device)  # paef: ok cpu-then-move
x = torch.tensor(features_np, dtype=torch.float32).to(device)  # paef: ok cpu-then-move
y = torch.tensor(labels_np).to(device)  # paef: ok cpu-then-move
train_mask = torch.zeros(N, dtype=torch.bool, device=device)
train_mask[: N // 2] = True
test_mask = ~train_mask


def degree(index, num_nodes):
    deg = torch.zeros(num_nodes, device=index.device)
    for k in range(index.size(0)):  # paef: expect elementwise-loop
        deg[index[k]] += 1
    return deg


def gcn_norm(edge_index, num_nodes):
    loops = torch.arange(num_nodes, device=edge_index.device)  # paef: ok redundant-tensor
    row = torch.cat([edge_index[0], loops])
    col = torch.cat([edge_index[1], loops])
    deg = degree(col, num_nodes)
    w = deg[row].rsqrt() * deg[col].rsqrt()
    return row, col, w


class GCNLayer(nn.Module):
    def __init__(self, fin, fout):
        super().__init__()
        self.lin = nn.Linear(fin, fout)

    def forward(self, x, row, col, w):
        h = self.lin(x)
        out = torch.zeros_like(h)
        out.index_add_(0, col, h[row] * w.unsqueeze(1))
        return out


class GCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1, self.l2 = GCNLayer(F_IN, 16), GCNLayer(16, C)

    def forward(self, x, row, col, w):
        return self.l2(F.dropout(F.relu(self.l1(x, row, col, w)), 0.3, self.training), row, col, w)


model = GCN().to(device)
opt = torch.optim.Adam(model.parameters(), lr=0.02, weight_decay=5e-4)
for epoch in range(30):
    model.train()
    row, col, w = gcn_norm(edge_index, N)  # paef: expect redundant-tensor
    out = model(x, row, col, w)
    loss = F.cross_entropy(out[train_mask], y[train_mask])
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 10 == 9:
        model.eval()
        with torch.no_grad():
            pred = model(x, row, col, w).argmax(1)
            acc = (pred[test_mask] == y[test_mask]).sum().item() / int(test_mask.sum())  # paef: ok host-sync
        print(f"epoch {epoch} loss {loss.item():.4f} test acc {acc:.3f}")  # paef: ok host-sync
