# Public check 36, p03: graph classification (ENZYMES) train / test functions.
# Source: https://github.com/Jay-Montgomery-Johnson/Enzyme_Classification/blob/7653327f5a2e74de277b3c8f59382e7aac82785f/train.py
# Changes to make it run on the CPU in seconds:
# - `from model import GCN` (model.py not fetched; torch_geometric not in the venv) replaced by a
#   stand-in GCN (dense mean aggregation over edge_index + mean pooling by `batch`) with the same
#   call `model(data.x, data.edge_index, data.batch)`.
# - a stand-in loader of 6 seeded PyG-like mini-batches (x, edge_index, batch, y) and a driver at
#   the end (5 epochs of train + test, as the repository's notebook would call them) with a checksum.
# The source's lines (model / optimizer / criterion / train / test) are unchanged.
import torch
from types import SimpleNamespace


class GCN(torch.nn.Module):  # stand-in for model.GCN
    def __init__(self, in_dim=3, hidden=16, classes=6):
        super().__init__()
        torch.manual_seed(0)
        self.lin1 = torch.nn.Linear(in_dim, hidden)
        self.lin2 = torch.nn.Linear(hidden, classes)

    def forward(self, x, edge_index, batch):
        agg = torch.zeros_like(x).index_add_(0, edge_index[1], x[edge_index[0]])
        h = torch.relu(self.lin1(x + agg))
        n_graphs = int(batch.max()) + 1
        pooled = torch.zeros(n_graphs, h.shape[1]).index_add_(0, batch, h)
        pooled = pooled / torch.bincount(batch, minlength=n_graphs).unsqueeze(1)
        return self.lin2(pooled)


model = GCN()
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
criterion = torch.nn.CrossEntropyLoss()

def train(train_loader):
    model.train()
    
    for data in train_loader:
        out = model(data.x, data.edge_index, data.batch)
        loss = criterion(out, data.y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        
def test(loader):
    model.eval()
    
    correct=0
    for data in loader:
        out = model(data.x, data.edge_index, data.batch)
        pred = out.argmax(dim=1)
        correct += int((pred == data.y).sum())
    return correct / len(loader.dataset)


# ---- stand-in data and driver (not part of the source file) ----
class _Loader(list):
    dataset = range(24)


def _make_loader(seed):
    g = torch.Generator().manual_seed(seed)
    out = _Loader()
    for _ in range(3):
        n = 20
        batch = torch.arange(4).repeat_interleave(5)
        src = torch.randint(0, n, (40,), generator=g)
        dst = (src // 5) * 5 + torch.randint(0, 5, (40,), generator=g)
        out.append(SimpleNamespace(x=torch.randn(n, 3, generator=g), edge_index=torch.stack([src, dst]),
                                   batch=batch, y=torch.randint(0, 6, (4,), generator=g)))
    out.dataset = range(12)
    return out


train_loader, test_loader = _make_loader(1), _make_loader(2)
accs = []
for epoch in range(5):
    train(train_loader)
    accs.append((test(train_loader), test(test_loader)))
print("checksum", accs, round(sum(float(p.sum()) for p in model.parameters()), 5))
