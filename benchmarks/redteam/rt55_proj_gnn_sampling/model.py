import torch
import torch.nn as nn


class SAGE(nn.Module):
    def __init__(self, d_in, d_h, n_cls):
        super().__init__()
        self.self1 = nn.Linear(d_in, d_h)
        self.nb1 = nn.Linear(d_in, d_h)
        self.self2 = nn.Linear(d_h, d_h)
        self.nb2 = nn.Linear(d_h, d_h)
        self.out = nn.Linear(d_h, n_cls)

    @staticmethod
    def mean_agg(h, src, dst, n_dst, w):
        summed = torch.zeros(n_dst, h.shape[1], device=h.device)
        summed.scatter_add_(0, dst.unsqueeze(1).expand(-1, h.shape[1]), h[src] * w[src].unsqueeze(1))
        cnt = torch.zeros(n_dst, device=h.device).index_add_(0, dst, w[src])
        return summed / cnt.clamp(min=1e-6).unsqueeze(1)

    def forward(self, x, blocks, w):
        (src2, dst2, n2), (src1, dst1, n1) = blocks
        h = torch.relu(self.self1(x[:n2]) + self.nb1(self.mean_agg(x, src2, dst2, n2, w)))
        h = torch.relu(self.self2(h[:n1]) + self.nb2(self.mean_agg(h, src1, dst1, n1, w[:n2])))
        return self.out(h)
