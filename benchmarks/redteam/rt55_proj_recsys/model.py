import torch
import torch.nn as nn


class TwoTower(nn.Module):
    def __init__(self, n_items, dim):
        super().__init__()
        self.bag = nn.EmbeddingBag(n_items, dim, mode='mean')
        self.items = nn.Embedding(n_items, dim)
        self.proj = nn.Linear(dim, dim)

    def user(self, flat, offsets):
        return torch.tanh(self.proj(self.bag(flat, offsets)))

    def score(self, u, item_ids):
        return (u.unsqueeze(1) * self.items(item_ids)).sum(-1)
