# Public check 36, p04: full-batch node classification train / test (PyG Cora shape).
# Source: https://github.com/hou27/implementation/blob/2dd5207cb2f00de11a6907d9086e94cee5cc4199/GNN/basic/run.py
# Changes to make it run on the CPU in seconds:
# - the model and the Planetoid data (not fetched; torch_geometric not in the venv) replaced by a
#   stand-in 2-layer dense GCN returning log-probabilities and a seeded 60-node graph object with
#   x, edge_index, y, train_mask, test_mask; the device picked as the PyG examples do.
# - a driver at the end (30 epochs of train, test every epoch) with a checksum.
# The source's two functions are unchanged.
import torch
import torch.nn.functional as F
from types import SimpleNamespace

def train(model, data, optimizer):
    model.train()
    optimizer.zero_grad()
    out = model(data)
    loss = F.nll_loss(out[data.train_mask], data.y[data.train_mask])
    loss.backward()
    optimizer.step()

def test(model, data):
    model.eval()
    out = model(data)
    pred = out.argmax(dim=1)
    correct = pred[data.test_mask] == data.y[data.test_mask]
    return int(correct.sum()) / int(data.test_mask.sum())


# ---- stand-in model, data and driver (not part of the source file) ----
class Net(torch.nn.Module):
    def __init__(self, n, f, c):
        super().__init__()
        self.l1 = torch.nn.Linear(f, 16)
        self.l2 = torch.nn.Linear(16, c)

    def forward(self, data):
        a = torch.zeros(data.x.shape[0], data.x.shape[0], device=data.x.device)
        a[data.edge_index[0], data.edge_index[1]] = 1.0
        a = a + torch.eye(a.shape[0], device=a.device)
        a = a / a.sum(1, keepdim=True)
        h = F.relu(self.l1(a @ data.x))
        h = F.dropout(h, training=self.training)
        return F.log_softmax(self.l2(a @ h), dim=1)


torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
N = 60
perm = torch.randperm(N)
data = SimpleNamespace(x=torch.randn(N, 8), edge_index=torch.randint(0, N, (2, 200)), y=torch.randint(0, 3, (N,)),
                       train_mask=torch.zeros(N, dtype=torch.bool), test_mask=torch.zeros(N, dtype=torch.bool))
data.train_mask[perm[:30]] = True
data.test_mask[perm[30:]] = True
for k in ("x", "edge_index", "y", "train_mask", "test_mask"):
    setattr(data, k, getattr(data, k).to(device))
model = Net(N, 8, 3).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
accs = []
for epoch in range(30):
    train(model, data, optimizer)
    accs.append(test(model, data))
print("checksum", round(sum(accs), 6), accs[-1])
