# corpus: runnable
"""Full-batch node classification in the style of pygcn/pyGAT: one optimisation step per epoch
in `train(epoch)`, then, in the same function, `model.eval()` and a second forward pass on the
whole graph whose output only feeds validation metrics, printed and returned as `.data`
(the epoch loop keeps the returned values for early stopping). A second trainer,
`train_joint`, runs the same validation forward but adds its loss to the training objective
(a consistency term): that forward must keep its graph."""
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
fastmode = False

n_nodes, n_feat, n_class = 60, 12, 3
features = torch.randn(n_nodes, n_feat)
adj = (torch.rand(n_nodes, n_nodes) > 0.85).float()
adj = adj + adj.t() + torch.eye(n_nodes)
adj = adj / adj.sum(1, keepdim=True)
labels = torch.randint(0, n_class, (n_nodes,))
idx_train, idx_val = torch.arange(0, 40), torch.arange(40, 60)
features, adj, labels = features.to(device), adj.to(device), labels.to(device)
idx_train, idx_val = idx_train.to(device), idx_val.to(device)


class GraphConvolution(nn.Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(n_in, n_out))
        nn.init.xavier_uniform_(self.weight)

    def forward(self, x, a):
        return a @ (x @ self.weight)


class GCN(nn.Module):
    def __init__(self, nfeat, nhid, nclass, dropout):
        super().__init__()
        self.gc1 = GraphConvolution(nfeat, nhid)
        self.gc2 = GraphConvolution(nhid, nclass)
        self.dropout = dropout

    def forward(self, x, a):
        x = F.relu(self.gc1(x, a))
        x = F.dropout(x, self.dropout, training=self.training)
        return F.log_softmax(self.gc2(x, a), dim=1)


def accuracy(output, target):
    preds = output.max(1)[1].type_as(target)
    return preds.eq(target).double().sum() / len(target)


model = GCN(n_feat, 16, n_class, 0.5).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)


def train(epoch):
    t = time.time()
    model.train()
    optimizer.zero_grad()
    output = model(features, adj)
    loss_train = F.nll_loss(output[idx_train], labels[idx_train])
    acc_train = accuracy(output[idx_train], labels[idx_train])
    loss_train.backward()
    optimizer.step()

    if not fastmode:
        model.eval()
        output = model(features, adj)  # paef: expect eval-without-no-grad

    loss_val = F.nll_loss(output[idx_val], labels[idx_val])
    acc_val = accuracy(output[idx_val], labels[idx_val])
    if epoch % 10 == 0:
        print("Epoch: {:04d}".format(epoch + 1), "loss_train: {:.4f}".format(loss_train.data.item()),
              "acc_train: {:.4f}".format(acc_train.data.item()), "loss_val: {:.4f}".format(loss_val.data.item()),
              "acc_val: {:.4f}".format(acc_val.data.item()), "time: {:.1f}".format(0.0 * (time.time() - t)))
    return loss_val.data


joint = GCN(n_feat, 16, n_class, 0.5).to(device)
joint_opt = torch.optim.Adam(joint.parameters(), lr=0.01)


def train_joint(epoch):
    joint.train()
    joint_opt.zero_grad()
    output = joint(features, adj)
    loss_train = F.nll_loss(output[idx_train], labels[idx_train])
    joint.eval()
    clean = joint(features, adj)
    loss = loss_train + 0.1 * F.kl_div(clean, output.detach().exp(), reduction="batchmean")
    loss.backward()
    joint_opt.step()
    return loss.data


loss_values, best, best_epoch, bad = [], float("inf"), 0, 0
for epoch in range(60):
    loss_values.append(train(epoch))
    if loss_values[-1] < best:
        best, best_epoch, bad = loss_values[-1], epoch, 0
    else:
        bad += 1
    if bad == 20:
        break
joint_losses = [train_joint(epoch) for epoch in range(20)]
print(f"best epoch {best_epoch} val loss {float(best):.4f} joint {float(joint_losses[-1]):.4f}")
