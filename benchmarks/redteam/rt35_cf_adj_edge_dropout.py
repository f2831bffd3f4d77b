# corpus: runnable
# Red team 35 (blind): a two-layer GCN on a small random graph (Kipf & Welling style). The
# normalised adjacency is computed with NumPy in the training loop; the layers apply DropEdge
# (edge dropout) to the dense adjacency they receive, in place to save memory.
import numpy as np
import torch
from torch import nn

torch.set_num_threads(1)


def normalize_adj(a):
    a = a + np.eye(a.shape[0], dtype=a.dtype)
    d = np.power(a.sum(1), -0.5)
    return (a * d[:, None]) * d[None, :]


class EdgeDropout(nn.Module):
    def __init__(self, p):
        super().__init__()
        self.p = p

    def forward(self, adj):
        if not self.training or self.p == 0:
            return adj
        keep = (torch.rand_like(adj) > self.p).to(adj.dtype)
        return adj.mul_(keep / (1 - self.p))


class GCNLayer(nn.Module):
    def __init__(self, fin, fout, p):
        super().__init__()
        self.lin = nn.Linear(fin, fout)
        self.edge_dropout = EdgeDropout(p)

    def forward(self, x, adj):
        adj = self.edge_dropout(adj)
        return adj @ self.lin(x)


class GCN(nn.Module):
    def __init__(self, fin, hidden, classes):
        super().__init__()
        self.l1 = GCNLayer(fin, hidden, 0.2)
        self.l2 = GCNLayer(hidden, classes, 0.0)

    def forward(self, x, adj):
        return self.l2(torch.relu(self.l1(x, adj)), adj)


def main():
    torch.manual_seed(0)
    rng = np.random.RandomState(0)
    n = 40
    adj_np = (rng.rand(n, n) < 0.15).astype(np.float32)
    adj_np = np.maximum(adj_np, adj_np.T)
    x = torch.randn(n, 8)
    y = torch.randint(0, 3, (n,))
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = GCN(8, 16, 3).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    x, y = x.to(device), y.to(device)
    for epoch in range(5):
        model.train()
        adj = torch.from_numpy(normalize_adj(adj_np)).to(device)  # paef: refuse cpu-function; refuse redundant-tensor
        loss = nn.functional.cross_entropy(model(x, adj), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"epoch {epoch}: loss {loss.item():.6f} adjacency mass {adj.sum().item():.4f}")


if __name__ == "__main__":
    main()
