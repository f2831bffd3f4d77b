# corpus: runnable
# Feature pipelines in NumPy recomputed per epoch, then changed in place by NumPy calls that
# write through `out=`, `np.copyto`, `ndarray.sort()`, `np.random.shuffle` (seeded), `np.put`.
# Computed once before the loop, each epoch would start from the previous epoch's changes.
import numpy as np
import torch

torch.manual_seed(0)
torch.set_num_threads(1)
rng = np.random.default_rng(0)
raw = rng.gamma(2.0, 3.0, (8, 3))
w = torch.zeros(3, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.01)
np.random.seed(0)

trace = []
for epoch in range(3):
    feats = np.log1p(raw)
    feats = (feats - feats.mean(axis=0)) / feats.std(axis=0)
    np.add(feats, 0.1 * epoch, out=feats)
    centred = np.abs(raw - raw.mean(axis=0))
    centred.sort(axis=0)
    np.copyto(centred[0], 0.0)
    order = np.arange(raw.shape[0])
    np.random.shuffle(order)
    scale = np.sqrt(raw.var(axis=0))
    np.put(scale, [0], [1.0 + epoch])
    xb = torch.tensor(feats[order[:4]], dtype=torch.float32)
    loss = ((xb @ w) - torch.tensor(centred[:4, 0] / scale[0], dtype=torch.float32)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    trace.append(round(loss.item(), 5))
print(trace, [round(v, 5) for v in w.tolist()])
