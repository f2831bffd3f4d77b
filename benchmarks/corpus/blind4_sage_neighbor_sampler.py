# corpus: runnable
"""GraphSAGE on a synthetic community graph with a hand-written neighbour sampler: the
adjacency is a dict of neighbour lists, each mini-batch samples a fixed fan-out per node,
mean aggregation over the sampled neighbours, node features kept on the device."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
N, C, F_IN, FANOUT, BATCH = 400, 4, 16, 5, 64

community = torch.randint(0, C, (N,))
features = (F.one_hot(community, C).float().repeat(1, F_IN // C) + 0.8 * torch.randn(N, F_IN)).to(device)
labels = community.to(device)
adj = {i: [] for i in range(N)}
for _ in range(N * 4):
    a, b = random.randrange(N), random.randrange(N)
    if community[a] == community[b] or random.random() < 0.1:
        adj[a].append(b)
        adj[b].append(a)
for i in range(N):
    if not adj[i]:
        adj[i].append(i)


def sample_neighbors(nodes, fanout):
    return [[random.choice(adj[n]) for _ in range(fanout)] for n in nodes]  # paef: ok dict-as-list


class SAGELayer(nn.Module):
    def __init__(self, fin, fout):
        super().__init__()
        self.self_lin = nn.Linear(fin, fout)
        self.neigh_lin = nn.Linear(fin, fout)

    def forward(self, h_self, h_neigh):
        return self.self_lin(h_self) + self.neigh_lin(h_neigh.mean(1))


class SAGE(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = SAGELayer(F_IN, 32)
        self.l2 = SAGELayer(32, C)

    def embed(self, nodes):
        neigh = torch.tensor(sample_neighbors(nodes, FANOUT), device=device)  # paef: expect dict-as-list
        h_self = features[torch.tensor(nodes, device=device)]
        return F.relu(self.l1(h_self, features[neigh]))

    def forward(self, nodes):
        h = self.embed(nodes)
        neigh_nodes = sample_neighbors(nodes, FANOUT)
        h_neigh = torch.stack([self.embed(col) for col in zip(*neigh_nodes)], dim=1)
        return self.l2(h, h_neigh)


train_nodes = list(range(300))
test_nodes = list(range(300, N))
model = SAGE().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(5):
    random.shuffle(train_nodes)
    model.train()
    epoch_loss = 0.0
    for start in range(0, len(train_nodes), BATCH):
        batch = train_nodes[start:start + BATCH]
        out = model(batch)
        loss = F.cross_entropy(out, labels[batch])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        epoch_loss += loss.item() * len(batch)  # paef: expect host-sync
    model.eval()
    with torch.no_grad():
        pred = model(test_nodes).argmax(1)
        acc = (pred == labels[test_nodes]).float().mean().item()
    print(f"epoch {epoch} loss {epoch_loss / len(train_nodes):.4f} test acc {acc:.3f}")
