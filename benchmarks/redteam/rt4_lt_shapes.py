# corpus: runnable
# Per-batch scalars collected with `.item()`/`float()` from tensors of shape [1] (a model with
# one output), then turned into a tensor: stacking the tensors themselves gives [n, 1], and the
# comparison with [n] targets broadcasts to [n, n]. An evaluation loader that may be empty.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
model = nn.Linear(4, 1)
xs, ys = torch.randn(12, 4), torch.randn(12)
loader = DataLoader(TensorDataset(xs, ys), batch_size=4)

preds, targets = [], []
with torch.no_grad():
    for xb, yb in loader:
        out = model(xb).mean(0)
        preds.append(out.item())  # paef: expect-fix list-to-tensor
        targets.append(yb.mean().item())  # paef: expect-fix list-to-tensor
p = torch.tensor(preds)
t = torch.tensor(targets)
print(p.shape, ((p - t) ** 2).mean())

scores = []
with torch.no_grad():
    for xb, _ in loader:
        scores.append(float(model(xb[:1]).squeeze(0)))  # paef: expect-fix list-to-tensor
s = torch.tensor(scores)
print(s.shape, s.sum())

val_loader = DataLoader(TensorDataset(xs[:0], ys[:0]), batch_size=4)
val_losses = []
with torch.no_grad():
    for xb, yb in val_loader:
        val_losses.append(((model(xb).squeeze(1) - yb) ** 2).mean().item())  # paef: expect-fix list-to-tensor
v = torch.tensor(val_losses)
print(v.shape, v.numel())

norms = []
for p_ in model.parameters():
    norms.append(p_.norm().item())
print(torch.tensor(norms).shape)  # paef: ok list-to-tensor
