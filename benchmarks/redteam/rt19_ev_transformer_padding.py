# corpus: runnable
# Transformer evaluation with padding masks, no `torch.no_grad()`: a `TransformerEncoder` (nested
# tensors enabled by default) given a `src_key_padding_mask`, an `nn.MultiheadAttention` returning
# averaged weights, outputs at padded positions printed and pooled, and a ragged batch built from a
# list of sequences of different lengths.
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"

layer = nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.0, batch_first=True)
encoder = nn.TransformerEncoder(layer, num_layers=2).to(device)
attn = nn.MultiheadAttention(8, 2, batch_first=True).to(device)
head = nn.Linear(8, 2).to(device)

seqs = [torch.randn(int(n), 8) for n in (5, 3, 4, 2)]
lengths = torch.tensor([len(s) for s in seqs])
batch = nn.utils.rnn.pad_sequence(seqs, batch_first=True).to(device)
mask = torch.arange(batch.shape[1])[None, :] >= lengths[:, None]
mask = mask.to(device)

encoder.eval()
attn.eval()
outs = []
for i in range(2):
    enc = encoder(batch, src_key_padding_mask=mask)
    ctx, weights = attn(enc, enc, enc, key_padding_mask=mask)
    pooled = enc.sum(1) / lengths.to(device)[:, None]
    outs.append(head(pooled))
    print(i, enc.shape, round(enc[1, 4].abs().sum().item(), 5), round(enc.abs().sum().item(), 4))
    print("  ", round(ctx[3, 3].abs().sum().item(), 5), weights.shape)
print(torch.cat(outs).argmax(-1).tolist())

scores = []
for s in seqs:
    x = s.to(device)[None]
    scores.append(head(encoder(x).mean(1)).softmax(-1)[0, 1].item())
print([round(v, 5) for v in scores])
