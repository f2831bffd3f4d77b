# corpus: runnable
"""Graph attention (GAT, after the reference pyGAT implementation) on a dense adjacency matrix:
two heads of attention with a masked softmax, full-batch training on a synthetic two-community
citation-like graph, dropout on features and attention, early stopping on validation loss and
a checkpoint of the best weights."""
import copy

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

np.random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
N, F_IN, N_CLASSES = 120, 16, 3


class GraphAttentionLayer(nn.Module):
    def __init__(self, in_f, out_f, dropout=0.3, alpha=0.2, concat=True):
        super().__init__()
        self.W = nn.Parameter(torch.empty(in_f, out_f))
        self.a = nn.Parameter(torch.empty(2 * out_f, 1))
        nn.init.xavier_uniform_(self.W, gain=1.414)
        nn.init.xavier_uniform_(self.a, gain=1.414)
        self.dropout, self.concat, self.out_f = dropout, concat, out_f
        self.leakyrelu = nn.LeakyReLU(alpha)

    def forward(self, h, adj):
        Wh = h @ self.W
        e = self.leakyrelu(Wh @ self.a[: self.out_f] + (Wh @ self.a[self.out_f :]).T)
        zero_vec = -9e15 * torch.ones_like(e)  # paef: ok redundant-tensor
        attention = torch.where(adj > 0, e, zero_vec)
        attention = F.dropout(F.softmax(attention, dim=1), self.dropout, training=self.training)
        h_prime = attention @ Wh
        return F.elu(h_prime) if self.concat else h_prime


class GAT(nn.Module):
    def __init__(self, nfeat, nhid, nclass, nheads=2):
        super().__init__()
        self.heads = nn.ModuleList([GraphAttentionLayer(nfeat, nhid) for _ in range(nheads)])
        self.out_att = GraphAttentionLayer(nhid * nheads, nclass, concat=False)

    def forward(self, x, adj):
        x = F.dropout(x, 0.3, training=self.training)
        x = torch.cat([att(x, adj) for att in self.heads], dim=1)
        x = F.dropout(x, 0.3, training=self.training)
        return F.log_softmax(self.out_att(x, adj), dim=1)


def normalize_features(mx):
    rowsum = np.array(mx.sum(1))
    r_inv = np.power(rowsum, -1.0).flatten()
    r_inv[np.isinf(r_inv)] = 0.0
    return np.diag(r_inv) @ mx


labels_np = np.random.randint(0, N_CLASSES, N)
feats_np = np.abs(np.random.randn(N, F_IN) + labels_np[:, None] * 0.8).astype(np.float32)
same = labels_np[:, None] == labels_np[None, :]
edges = np.argwhere(np.random.rand(N, N) < np.where(same, 0.08, 0.01))

features = torch.FloatTensor(normalize_features(feats_np)).to(device)
labels = torch.LongTensor(labels_np).to(device)
idx_train, idx_val, idx_test = torch.arange(60), torch.arange(60, 90), torch.arange(90, N)

model = GAT(F_IN, 8, N_CLASSES).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2, weight_decay=5e-4)
best_loss, best_state, bad = float("inf"), None, 0
for epoch in range(60):
    adj = np.zeros((N, N), dtype=np.float32)  # paef: expect cpu-function
    adj[edges[:, 0], edges[:, 1]] = 1.0
    adj = adj + adj.T + np.eye(N, dtype=np.float32)  # paef: expect cpu-function
    adj = torch.from_numpy((adj > 0).astype(np.float32)).to(device)  # paef: expect redundant-tensor; ok cpu-function
    model.train()
    optimizer.zero_grad()
    output = model(features, adj)
    loss_train = F.nll_loss(output[idx_train], labels[idx_train])
    loss_train.backward()
    optimizer.step()
    model.eval()
    output = model(features, adj)  # paef: expect eval-without-no-grad
    loss_val = F.nll_loss(output[idx_val], labels[idx_val])
    acc_val = (output[idx_val].argmax(1) == labels[idx_val]).float().mean()
    if loss_val.item() < best_loss:  # paef: expect host-sync
        best_loss, best_state, bad = loss_val.item(), copy.deepcopy(model.state_dict()), 0  # paef: ok host-sync
    else:
        bad += 1
        if bad == 20:
            break
    if epoch % 10 == 0:
        print(f"epoch {epoch} train {loss_train.item():.4f} val {loss_val.item():.4f} acc {acc_val.item():.3f}")  # paef: ok host-sync

model.load_state_dict(best_state)
model.eval()
with torch.no_grad():
    output = model(features, adj)
    acc_test = (output[idx_test].argmax(1) == labels[idx_test]).float().mean()
print(f"best val loss {best_loss:.4f} test acc {acc_test.item():.3f}")
