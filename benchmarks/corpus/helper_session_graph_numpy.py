# corpus: runnable
"""SR-GNN-style batches: a NumPy helper builds each batch's session graph again every epoch."""
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

random.seed(0)
torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
N_ITEMS, L = 30, 5
sessions = [[random.randrange(1, N_ITEMS) for _ in range(L)] for _ in range(120)]
targets = torch.tensor([random.randrange(1, N_ITEMS) for _ in range(120)], device=device)
batches = [list(range(i, i + 20)) for i in range(0, 120, 20)]


def build_graph(batch_sessions):
    A = np.zeros((len(batch_sessions), L, L), dtype=np.float32)
    for b, s in enumerate(batch_sessions):
        for i in range(L - 1):
            A[b, i, i + 1] = 1.0
    deg = A.sum(2, keepdims=True)
    return A / np.maximum(deg, 1.0)


class GNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb, self.w = nn.Embedding(N_ITEMS, 16), nn.Linear(16, 16)

    def forward(self, items, A):
        h = self.emb(items)
        h = h + torch.relu(self.w(A @ h))
        return h[:, -1] @ self.emb.weight.t()


model = GNN().to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(3):
    for idx in batches:
        A = torch.from_numpy(build_graph([sessions[i] for i in idx])).to(device)  # paef: expect cpu-function; ok redundant-tensor; ok pageable-transfer
        items = torch.tensor([sessions[i] for i in idx], device=device)  # paef: ok list-to-tensor; ok redundant-tensor
        loss = F.cross_entropy(model(items, A), targets[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
