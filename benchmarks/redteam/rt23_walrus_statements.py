# corpus: runnable
# Red team 23: walrus statements and named expressions (in conditions, comprehensions, calls) bind
# buffers and NumPy views that the loop then changes in place
import numpy as np
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(23)
device = "cuda" if torch.cuda.is_available() else "cpu"

(running := torch.zeros(4))
(host := running.numpy())
if (mirror := running.numpy()) is not None:
    print("mirror ready")
views = [(kept := running.numpy()) for _ in range(1)]
weights = [1.0, 2.0, 3.0, 4.0]
(scale := weights)
print("setup", len(views), len(scale))
model = nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
log = []
for step in range(4):
    (acc := torch.zeros(4))
    if (peak := torch.zeros(4)) is not None:
        peak.add_(float(step))
    sums = [(tot := torch.zeros(2)) for _ in range(1)]
    a = np.sqrt(host)
    b = np.sqrt(mirror)
    c = np.sqrt(kept)
    w = torch.tensor(scale, device=device)
    x = torch.randn(8, 4, device=device)
    loss = model(x * w).pow(2).mean() * 1e-3
    opt.zero_grad()
    loss.backward()
    opt.step()
    acc.add_(x.detach().cpu().abs().mean(0))
    acc += 1.0
    tot.add_(2.0)
    running.add_(float(step + 1))
    weights[step % 4] += 1.0
    log.append([round(float(v.sum()), 5) for v in (a, b, c, w.cpu(), acc, peak, sums[0])])
print("walrus", log)
