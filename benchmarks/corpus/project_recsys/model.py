"""A NISER-like session encoder: normalised item and session embeddings, position weights."""
import torch
import torch.nn as nn


def l2_normalize(x, eps=1e-12):
    return x / torch.sqrt((x * x).sum(dim=-1, keepdim=True) + eps)  # paef: expect operator-fusion


class SessionEncoder(nn.Module):
    def __init__(self, n_items, dim, max_len, scale=12.0):
        super().__init__()
        self.items = nn.Embedding(n_items, dim, padding_idx=0)
        self.pos = nn.Embedding(max_len, dim)
        self.scale = scale

    def forward(self, items, lengths):
        positions = torch.arange(items.size(1), device=items.device).expand_as(items)  # paef: expect redundant-tensor
        mask = (items > 0).unsqueeze(-1).float()
        h = l2_normalize(self.items(items)) + self.pos(positions)
        sess = l2_normalize((h * mask).sum(1) / lengths.unsqueeze(1).float())
        return self.scale * sess @ l2_normalize(self.items.weight).t()
