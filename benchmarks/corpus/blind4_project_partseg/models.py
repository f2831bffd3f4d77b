import torch
import torch.nn as nn


class PointSeg(nn.Module):
    def __init__(self, n_shapes, n_parts, width=32):
        super().__init__()
        self.local = nn.Sequential(nn.Linear(3, width), nn.ReLU(), nn.Linear(width, width), nn.ReLU())
        self.head = nn.Sequential(nn.Linear(2 * width + n_shapes, width), nn.ReLU(), nn.Linear(width, n_parts))

    def forward(self, points, cls_oh):
        f = self.local(points)
        g = f.max(1, keepdim=True)[0].expand_as(f)
        c = cls_oh[:, None, :].expand(-1, points.shape[1], -1)
        return self.head(torch.cat([f, g, c], -1))
