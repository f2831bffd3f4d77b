# corpus: runnable
# Evaluation of a padded batch through nn.TransformerEncoder: with grad disabled the library
# takes its fast path (nested tensors from the padding mask), which zero-fills the padded
# positions; with grad enabled it does not. The report averages over every position.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
layer = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True)
encoder = nn.TransformerEncoder(layer, 2, enable_nested_tensor=True)
head = nn.Linear(8, 2)
xs = torch.randn(3, 4, 6, 8)
lengths = torch.tensor([[6, 4, 3, 5], [2, 6, 6, 1], [5, 5, 4, 6]])

encoder.eval()
head.eval()
totals = []
for x, n in zip(xs, lengths):
    pad = torch.arange(6)[None, :] >= n[:, None]
    h = encoder(x, src_key_padding_mask=pad)
    logits = head(h)
    totals.append(round(logits.mean().item(), 4))
print("mean logits", totals)

mha = nn.MultiheadAttention(8, 2, batch_first=True)
mha.eval()
outs = []
for x, n in zip(xs, lengths):
    pad = torch.arange(6)[None, :] >= n[:, None]
    y, _ = mha(x, x, x, key_padding_mask=pad, need_weights=False)
    outs.append(round(y.abs().sum().item(), 3))
print("attention", outs)
