# corpus: runnable
"""A GCN on a small random graph: adjacency normalised with NumPy, confusion matrix per epoch, early stopping."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

np.random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

n_nodes, n_feats, n_cls = 60, 12, 3
labels_np = np.random.randint(0, n_cls, n_nodes)
feats_np = (np.random.randn(n_nodes, n_feats) + labels_np[:, None] * 0.5).astype(np.float32)
edges = np.random.randint(0, n_nodes, size=(150, 2))
adj_np = np.zeros((n_nodes, n_nodes), dtype=np.float32)
adj_np[edges[:, 0], edges[:, 1]] = 1.0
adj_np = np.maximum(adj_np, adj_np.T)


def normalize_adj(adj):
    adj = adj + np.eye(adj.shape[0], dtype=np.float32)
    rowsum = adj.sum(1)
    d_inv_sqrt = np.power(rowsum, -0.5)
    d_inv_sqrt[np.isinf(d_inv_sqrt)] = 0.0
    d = np.diag(d_inv_sqrt)
    return d @ adj @ d


class GCN(nn.Module):
    def __init__(self, nfeat, nhid, nclass, dropout=0.3):
        super().__init__()
        self.w1 = nn.Linear(nfeat, nhid)
        self.w2 = nn.Linear(nhid, nclass)
        self.dropout = dropout

    def forward(self, x, adj):
        x = F.relu(adj @ self.w1(x))
        x = F.dropout(x, self.dropout, training=self.training)
        return F.log_softmax(adj @ self.w2(x), dim=1)


features = torch.from_numpy(feats_np).to(device)
labels = torch.from_numpy(labels_np).to(device)
idx_train = torch.arange(0, 40, device=device)
idx_val = torch.arange(40, 60, device=device)
model = GCN(n_feats, 16, n_cls).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
confusion = np.zeros((n_cls, n_cls), dtype=np.int64)


def macro_recall():
    per_class = np.diag(confusion) / np.maximum(confusion.sum(axis=1), 1)
    return float(per_class.mean())


best_val, bad_epochs, patience = float("inf"), 0, 5
for epoch in range(30):
    adj = torch.from_numpy(normalize_adj(adj_np)).to(device)  # paef: expect cpu-function; ok pageable-transfer; ok redundant-tensor; ok cpu-then-move
    model.train()
    optimizer.zero_grad()
    output = model(features, adj)
    loss_train = F.nll_loss(output[idx_train], labels[idx_train])
    loss_train.backward()
    optimizer.step()

    model.eval()
    with torch.no_grad():
        output = model(features, adj)
        loss_val = F.nll_loss(output[idx_val], labels[idx_val])
        preds = output[idx_val].argmax(1).cpu().numpy()  # paef: ok host-sync
    confusion[:] = 0
    np.add.at(confusion, (labels_np[40:], preds), 1)
    recall = macro_recall()
    if loss_val.item() < best_val:  # paef: ok host-sync
        best_val, bad_epochs = loss_val.item(), 0
    else:
        bad_epochs += 1
    if epoch % 5 == 0:
        print(f"epoch {epoch} train {loss_train.item():.4f} val {loss_val.item():.4f} macro recall {recall:.4f}")
    if bad_epochs >= patience:
        print(f"early stop at {epoch}")
        break
