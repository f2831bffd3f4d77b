# corpus: runnable
# Red team 21: a transformer layer subclassed in the program (its fast path runs under no_grad)
import functools

import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(21)
device = "cuda" if torch.cuda.is_available() else "cpu"


class Layer(nn.TransformerEncoderLayer):
    """A pre-norm block: PyTorch's class, with the program's defaults."""

    def __init__(self, d_model):
        super().__init__(d_model, nhead=2, dim_feedforward=32, dropout=0.0, batch_first=True)


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([Layer(16) for _ in range(2)])

    def forward(self, x, pad):
        for layer in self.layers:
            x = layer(x, src_key_padding_mask=pad)
        return x


model = Encoder().to(device)
model.eval()
batches = [torch.randn(4, 7, 16) for _ in range(3)]
masks = [torch.arange(7).expand(4, 7) >= torch.tensor([[7], [5], [3], [6]]) for _ in range(3)]
sums = []
for x, m in zip(batches, masks):
    out = model(x.to(device), m.to(device))
    sums.append(out.abs().sum().item())
print("eval sums", [f"{s:.6f}" for s in sums])
