# corpus: runnable
"""Probe after red team 42's first contact (not blind): the parametrized weight is read inside a
helper of the program that a per-step factory calls (`torch.zeros(weight_shape(enc))`)."""
import torch
import torch.nn as nn
import torch.nn.utils.parametrize as P

torch.manual_seed(0)
device = 'cuda' if torch.cuda.is_available() else 'cpu'


class DropConnect(nn.Module):
    def forward(self, w):
        return w * (torch.rand_like(w) > 0.3).to(w.dtype)


def weight_shape(m):
    return m.weight.shape


enc = nn.Linear(5, 4).to(device)
P.register_parametrization(enc, "weight", DropConnect())
out = []
for k in range(3):
    grid = torch.zeros(weight_shape(enc)).to(device)
    out.append(f"{grid.sum().item() + torch.randn(1).item():.10f}")
print(out, torch.rand(2).tolist())
