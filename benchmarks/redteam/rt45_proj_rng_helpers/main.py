# corpus: runnable
# Red team 45 (blind): helpers in other modules that draw from streams the caller cannot see (a module-level
# NumPy Generator, a module-level random.Random) called with the same arguments every epoch, next to a pure
# helper; and an explicit CPU torch.Generator passed to randperm/randn whose results are moved to the device.
import numpy as np
import torch
import torch.nn as nn

from augment import jitter, keep_mask, normalise
from sampling import epoch_order, noise_like

torch.manual_seed(0)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

base = np.linspace(-1.0, 1.0, 60, dtype=np.float32).reshape(20, 3)
target = torch.from_numpy(base.sum(1, keepdims=True).copy())
gen = torch.Generator().manual_seed(21)

model = nn.Linear(3, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(4):
    feats = normalise(base)
    noisy = jitter(feats)
    kept = keep_mask(len(base))
    order = epoch_order(len(base), gen).to(device)
    eps = noise_like((len(base), 1), gen).to(device) * 0.01
    x = torch.from_numpy(noisy[kept]).to(device)
    y = target.to(device)[torch.from_numpy(np.flatnonzero(kept)).to(device)]
    perm = order[order < len(x)]
    loss = ((model(x[perm]) - y[perm] - eps[: len(perm)]) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(epoch, "kept", int(kept.sum()), "order head", order[:4].tolist(), "loss %.12f" % loss.item())
print("noise checksum %.12f" % float(noisy.sum()))
