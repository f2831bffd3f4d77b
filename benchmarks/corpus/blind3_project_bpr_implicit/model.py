import torch
import torch.nn as nn


class BPRMF(nn.Module):
    def __init__(self, n_users, n_items, dim):
        super().__init__()
        self.user = nn.Embedding(n_users, dim)
        self.item = nn.Embedding(n_items, dim)
        nn.init.normal_(self.user.weight, std=0.1)
        nn.init.normal_(self.item.weight, std=0.1)

    def forward(self, u, i, j):
        pu = self.user(u)
        x_uij = (pu * self.item(i)).sum(-1) - (pu * self.item(j)).sum(-1)
        return -torch.log(torch.sigmoid(x_uij) + 1e-10).mean()  # paef: refuse operator-fusion

    def scores(self, u):
        return self.user(u) @ self.item.weight.t()
