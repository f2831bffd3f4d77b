# corpus: runnable
"""Link prediction with a two-layer GCN written by hand over an edge list (symmetric degree
normalisation, index_add_ message passing), negative edges sampled each epoch, a dot-product
decoder, and Hits@K of held-out edges against sampled negatives."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
N, COMMUNITIES = 120, 4

comm = torch.arange(N) % COMMUNITIES
src, dst = torch.randint(0, N, (2, 1600))
keep = (comm[src] == comm[dst]) | (torch.rand(1600) < 0.05)
edges = torch.stack([src[keep], dst[keep]])
edges = edges[:, edges[0] != edges[1]]
perm = torch.randperm(edges.shape[1])
test_pos = edges[:, perm[:60]].to(device)
train_pos = edges[:, perm[60:]].to(device)
features = torch.randn(N, 16).to(device)  # paef: ok cpu-then-move


class GCNLayer(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.lin = nn.Linear(d_in, d_out)

    def forward(self, x, edge_index):
        row, col = torch.cat([edge_index, edge_index.flip(0)], 1)
        deg = torch.zeros(x.shape[0], device=x.device).index_add_(0, row, torch.ones(row.shape[0], device=x.device))  # paef: expect redundant-tensor
        norm = (deg[row] + 1).rsqrt() * (deg[col] + 1).rsqrt()
        h = self.lin(x)
        out = torch.zeros_like(h).index_add_(0, row, h[col] * norm[:, None])
        return out + h / (deg[:, None] + 1)


class GCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1, self.l2 = GCNLayer(16, 32), GCNLayer(32, 16)

    def forward(self, x, edge_index):
        return self.l2(F.relu(self.l1(x, edge_index)), edge_index)


model = GCN().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(40):
    model.train()
    z = model(features, train_pos)
    neg = torch.randint(0, N, train_pos.shape, device=device)
    pos_score = (z[train_pos[0]] * z[train_pos[1]]).sum(-1)
    neg_score = (z[neg[0]] * z[neg[1]]).sum(-1)
    loss = F.binary_cross_entropy_with_logits(torch.cat([pos_score, neg_score]), torch.cat([torch.ones_like(pos_score), torch.zeros_like(neg_score)]))  # paef: ok redundant-tensor
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if epoch % 10 == 0:
        print(f"epoch {epoch} loss {loss.item():.4f}")

model.eval()
with torch.no_grad():
    z = model(features, train_pos)
    pos = (z[test_pos[0]] * z[test_pos[1]]).sum(-1)
    negs = torch.randint(0, N, (2, 500), device=device)
    neg = (z[negs[0]] * z[negs[1]]).sum(-1)
    hits = 0
    for i in range(pos.shape[0]):  # paef: expect elementwise-loop
        if (neg > pos[i]).sum() < 20:  # paef: expect host-sync
            hits += 1
print(f"hits@20 {hits / pos.shape[0]:.3f}")
