"""Small building blocks."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvBlock(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3, padding=1)
        self.gain = nn.Parameter(torch.ones(cout))

    def forward(self, x):
        h = self.conv(x)
        h = h * torch.rsqrt(h.pow(2).mean(1, keepdim=True) + 1e-6) * self.gain[:, None, None]
        return h * torch.sigmoid(h)


def accumulate_and_step(total, opt, n):
    (total / n).backward()
    opt.step()
    opt.zero_grad()
