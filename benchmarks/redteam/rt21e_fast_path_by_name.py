# corpus: runnable
# Red team 21 (attack on its own fix): the transformer classes looked up by name on `torch.nn`
# (`getattr(nn, ARCH)`, as config-driven model builders do): no reference to the class itself.
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(21)
ARCH = "TransformerEncoder"
layer = getattr(nn, ARCH + "Layer")(16, 2, 32, dropout=0.0, batch_first=True)
encoder = getattr(nn, ARCH)(layer, 2).eval()
pad = torch.arange(7).expand(4, 7) >= torch.tensor([[7], [5], [3], [6]])
batches = [torch.randn(4, 7, 16) for _ in range(3)]
sums = []
for xb in batches:
    sums.append(encoder(xb, src_key_padding_mask=pad).abs().sum().item())
print("eval sums", [f"{s:.6f}" for s in sums])

registry = vars(nn)
block = registry["TransformerEncoderLayer"](16, 2, 32, dropout=0.0, batch_first=True).eval()
outs = []
for xb in batches:
    outs.append(block(xb, src_key_padding_mask=pad).abs().sum().item())
print("registry", [f"{s:.6f}" for s in outs])
