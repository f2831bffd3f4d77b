# corpus: runnable
"""A two-layer GCN on a random graph, trained full-batch, with the per-node loops that public GNN
repositories write in helpers: a neighbour count per row read as a Python number."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
N, F_IN, C = 60, 16, 3


def normalize_adj(adj):
    deg = adj.sum(1)
    d_inv_sqrt = deg.pow(-0.5)
    d_inv_sqrt[torch.isinf(d_inv_sqrt)] = 0.0
    return d_inv_sqrt[:, None] * adj * d_inv_sqrt[None, :]


def isolated_fraction(adj):
    isolated = 0
    for i in range(adj.shape[0]):  # paef: expect elementwise-loop
        if adj[i].sum().item() == 0:  # paef: ok host-sync
            isolated += 1
    return isolated / adj.shape[0]


def count_isolated(edge_list, n):
    seen = set()
    for u, v in edge_list:
        seen.add(u)
        seen.add(v)
    return n - len(seen)


class GCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.w1 = nn.Linear(F_IN, 32)
        self.w2 = nn.Linear(32, C)

    def forward(self, x, adj):
        return self.w2(adj @ F.relu(self.w1(adj @ x)))


g = torch.Generator().manual_seed(0)
edges = [(int(u), int(v)) for u, v in torch.randint(0, N, (120, 2), generator=g) if u != v]
adj = torch.zeros(N, N)
for u, v in edges:  # paef: ok elementwise-loop
    adj[u, v] = 1.0
adj = adj + adj.T
adj = adj.clamp(max=1.0) + torch.eye(N)
a_hat = normalize_adj(adj).to(device)
x = torch.randn(N, F_IN, generator=g).to(device)  # paef: ok cpu-then-move
y = torch.randint(0, C, (N,), generator=g).to(device)
print("isolated before training", count_isolated(edges, N))
model = GCN().to(device)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(20):
    out = model(x, a_hat)
    loss = F.cross_entropy(out, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    frac = isolated_fraction((a_hat > 0.3).float())  # paef: ok cpu-function
print(f"loss {loss.item():.4f} isolated fraction {frac:.3f}")
