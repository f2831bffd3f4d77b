# corpus: runnable
# Red team 24: names a hoist would bind once, deleted at the end of each iteration (`del`) or
# deleted on some iterations only; a hoisted name read after `del` raises NameError
import numpy as np
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(24)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(4, 2).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
raw = np.arange(12.0).reshape(3, 4)
log = []
for step in range(3):
    feats = np.sqrt(raw)
    scale = torch.tensor([0.5, 2.0], device=device)
    ones = torch.ones(4, device=device)
    x = torch.as_tensor(feats, dtype=torch.float32, device=device) + ones
    loss = (model(x) * scale).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    log.append(round(loss.item(), 5) + float(feats.sum()))
    del feats, scale
    if step % 2 == 0:
        del ones
print("del", log)


def run_epoch(batches):
    out = []
    for xb in batches:
        mean = np.mean(raw, axis=0)
        weights = torch.full((2,), 0.25, device=device)
        out.append(round(float((model(xb) * weights).sum()) + float(mean.sum()), 5))
        del mean
        del weights
    return out


print("helper", run_epoch([torch.randn(2, 4, device=device) for _ in range(3)]))
