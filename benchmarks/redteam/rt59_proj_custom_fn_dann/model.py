import torch.nn as nn

from ops import grad_reverse, round_st


class DANN(nn.Module):
    def __init__(self, d_in, d_feat, n_cls):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(d_in, 32), nn.ReLU(), nn.Linear(32, d_feat))
        self.label_head = nn.Linear(d_feat, n_cls)
        self.domain_head = nn.Sequential(nn.Linear(d_feat, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, x, lam, stats):
        f = round_st(self.features(x))
        return self.label_head(f), self.domain_head(grad_reverse(f, lam, stats)).squeeze(1)
