"""The encoder: a stack of `blocks.Block`."""
from torch import nn

from blocks import Block


class Net(nn.Module):
    def __init__(self, d, depth=2):
        super().__init__()
        self.layers = nn.ModuleList([Block(d) for _ in range(depth)])

    def forward(self, x, pad):
        for layer in self.layers:
            x = layer(x, src_key_padding_mask=pad)
        return x
