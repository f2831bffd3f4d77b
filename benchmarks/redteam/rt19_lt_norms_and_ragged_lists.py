# corpus: runnable
# Per-step values collected in Python lists then turned into tensors: gradient norms returned by
# `clip_grad_norm_` (0-d tensors) read with `.item()`, bfloat16 losses read inside autocast,
# sequence lengths of a ragged batch, per-sample complex magnitudes, and a list of nested
# (ragged) rows turned into a nested tensor.
import torch
from torch import nn
from torch.nn.utils import clip_grad_norm_

torch.set_num_threads(1)
torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"

model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = [(torch.randn(6, 4), torch.randn(6, 1)) for _ in range(6)]

norms = []
bf_losses = []
for x, y in data:
    x, y = x.to(device), y.to(device)
    with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
        out = model(x)
        loss = (out.float() - y).pow(2).mean()
        bf = (out - y).abs().mean()
    opt.zero_grad()
    loss.backward()
    norms.append(clip_grad_norm_(model.parameters(), 1.0).item())
    bf_losses.append(bf.item())
    opt.step()
nt = torch.tensor(norms)
bt = torch.tensor(bf_losses)
print("norms", nt.dtype, nt.tolist())
print("bf", bt.dtype, bt.sum().item(), (bt * 3).tolist())

seqs = [torch.randn(n, 3) for n in (4, 2, 5, 3)]
lengths = []
for s in seqs:
    lengths.append(s.shape[0])
lt = torch.tensor(lengths)
print("lengths", lt.dtype, (lt / 2).tolist())

zs = torch.randn(4, dtype=torch.cfloat)
mags = []
for z in zs:
    mags.append(z.item())
mt = torch.tensor(mags)
print("mags", mt.dtype, mt.abs().tolist())

rows = []
for s in seqs:
    rows.append(s.sum(0))
nested = torch.nested.nested_tensor([s.to(device) for s in seqs])
print("nested", nested.is_nested, [t.shape[0] for t in nested.unbind()], torch.stack(rows).shape)
