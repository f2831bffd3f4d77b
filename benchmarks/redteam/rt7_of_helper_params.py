# corpus: runnable
# Second wave: hand-written activations in helpers whose parameter receives, at a call site,
# a tensor of a dtype the analysis cannot read (NumPy integers, a legacy LongTensor), or
# through a keyword argument; a module's forward handed integer tokens.
import numpy as np
import torch
import torch.nn as nn


def leaky(x):
    return torch.where(x > 0, x, 0.2 * x)


def leaky_kw(x, slope=0.1):
    return torch.where(x > 0, x, 0.3 * x)


print("numpy", leaky(torch.from_numpy(np.arange(-3, 3))).tolist())
print("keyword", leaky_kw(x=torch.LongTensor([-2, 5])).tolist())
print("float", leaky(torch.linspace(-1, 1, 5)).tolist())


class Shift(nn.Module):
    def forward(self, tokens):
        centred = tokens - 2
        return torch.where(centred > 0, centred, 0.5 * centred)


print("tokens", Shift()(torch.tensor([0, 1, 2, 3, 4])).tolist())
