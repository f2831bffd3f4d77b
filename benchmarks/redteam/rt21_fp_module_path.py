# corpus: runnable
# Red team 21: a transformer layer imported from its defining module (torch.nn.modules.transformer)
import functools

import torch
from torch import nn
from torch.nn.modules.transformer import TransformerEncoder, TransformerEncoderLayer

torch.set_num_threads(1)
torch.manual_seed(21)
device = "cuda" if torch.cuda.is_available() else "cpu"


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        layer = TransformerEncoderLayer(16, 2, 32, dropout=0.0, batch_first=True)
        self.enc = TransformerEncoder(layer, 2)

    def forward(self, x, pad):
        return self.enc(x, src_key_padding_mask=pad)


model = Encoder().to(device)
model.eval()
batches = [torch.randn(4, 7, 16) for _ in range(3)]
masks = [torch.arange(7).expand(4, 7) >= torch.tensor([[7], [5], [3], [6]]) for _ in range(3)]
sums = []
for x, m in zip(batches, masks):
    out = model(x.to(device), m.to(device))
    sums.append(out.abs().sum().item())
print("eval sums", [f"{s:.6f}" for s in sums])
