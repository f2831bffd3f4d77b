# corpus: runnable
# Red team 46 (blind): reproducibility plumbing in a training script. torch is re-seeded at the start of every
# epoch; augmentation noise is drawn inside `torch.random.fork_rng`; the DataLoader shuffles with its own
# generator; NumPy runs with `np.seterr(all='ignore')` and counts what it would have warned about; the eval
# masks are drawn on the host right after a re-seed and moved to the device.
import warnings

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
torch.set_num_threads(1)
old = np.seterr(all='ignore')
device = 'cuda' if torch.cuda.is_available() else 'cpu'

X = torch.randn(48, 7)
Y = (X @ torch.linspace(-1, 1, 7) > 0).long()
loader_gen = torch.Generator().manual_seed(123)
loader = DataLoader(TensorDataset(X, Y), batch_size=12, shuffle=True, generator=loader_gen)
model = nn.Sequential(nn.Linear(7, 20), nn.GELU(), nn.Dropout(0.2), nn.Linear(20, 2)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)

for epoch in range(3):
    torch.manual_seed(1000 + epoch)
    model.train()
    seen = 0
    loss_sum = 0.0
    for xb, yb in loader:
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(seen)
            jitter = torch.randn(xb.shape) * 0.05
        xb = (xb + jitter).to(device)
        yb = yb.to(device)
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        loss_sum += loss.item()
        seen += len(xb)
    print('epoch', epoch, '%.10f' % loss_sum, 'next global draw %.10f' % torch.rand(()).item())

model.eval()
torch.manual_seed(2024)
keep = torch.rand(48, 7).lt(0.8).to(device)
with torch.no_grad():
    logits = model(X.to(device) * keep)
probs = logits.softmax(1)
p = probs.cpu().numpy()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter('always')
    log_p = np.log(p - p.min())
    ratio = p[:, 0] / (p[:, 1] - p[:, 1])
print('finite logs', int(np.isfinite(log_p).sum()), 'inf ratios', int(np.isinf(ratio).sum()), 'warnings', len(caught))
pred = torch.from_numpy(np.argmax(p, axis=1)).to(device)
print('accuracy', (pred == Y.to(device)).sum().item(), 'mask kept', int(keep.sum()))
np.seterr(**old)
