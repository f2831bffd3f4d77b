"""NARM-like encoder: GRU over the session plus attention over its items."""
import torch
import torch.nn as nn


class NARM(nn.Module):
    def __init__(self, n_items, dim=24):
        super().__init__()
        self.emb = nn.Embedding(n_items, dim, padding_idx=0)
        self.gru = nn.GRU(dim, dim, batch_first=True)
        self.a1 = nn.Linear(dim, dim, bias=False)
        self.a2 = nn.Linear(dim, dim, bias=False)
        self.v = nn.Linear(dim, 1, bias=False)
        self.b = nn.Linear(2 * dim, dim, bias=False)

    def forward(self, seqs, lens):
        e = self.emb(seqs)
        out, h = self.gru(e)
        ht = h[-1]
        mask = (torch.arange(seqs.size(1), device=seqs.device)[None, :] < lens[:, None]).float()  # paef: ok redundant-tensor
        alpha = self.v(torch.sigmoid(self.a1(out) + self.a2(ht)[:, None, :])).squeeze(-1) * mask
        c_local = (alpha.unsqueeze(-1) * out).sum(1)
        s = self.b(torch.cat([c_local, ht], 1))
        return s @ self.emb.weight.T
