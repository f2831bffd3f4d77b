# corpus: runnable
# An evaluation loop over a `TransformerEncoder` with a padding mask: under `no_grad` in eval mode
# PyTorch takes the nested-tensor fast path, which returns zeros at padded positions (the slow path
# returns numbers there): not "the last bits". The program prints the padded positions.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
layer = nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.0, batch_first=True)
enc = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=True)
enc.eval()
xs = torch.randn(3, 2, 4, 8)
mask = torch.tensor([[False, False, True, True], [False, False, False, True]])
padded = []
for x in xs:
    out = enc(x, src_key_padding_mask=mask)
    padded.append(round(out[0, 3].abs().sum().item(), 4))
print("padded positions", padded)
