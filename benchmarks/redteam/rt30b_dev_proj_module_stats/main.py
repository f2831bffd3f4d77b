# corpus: runnable
# Red team 30b, wave 2 (blind): metrics.py keeps its running total and per-step losses in module
# globals; this importer reads them through the module, mid-loop and after.
import torch
import torch.nn as nn

import metrics

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
g = torch.Generator().manual_seed(9)
batches = [(torch.randn(8, 3, generator=g), torch.randn(8, 1, generator=g)) for _ in range(4)]
model = nn.Linear(3, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
seen = []


def report():
    seen.append(f"{metrics.RUNNING!r}")


for epoch in range(2):
    metrics.train_epoch(model, opt, batches, device, on_step=report)
print(seen)
print(metrics.HISTORY[-1])
