"""A transformer block: PyTorch's layer with this project's defaults."""
from torch import nn


class Block(nn.TransformerEncoderLayer):
    def __init__(self, d):
        super().__init__(d, nhead=2, dim_feedforward=32, dropout=0.0, batch_first=True)
