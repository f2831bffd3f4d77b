# corpus: runnable
# A project whose local module reaches the script's globals through `import __main__`: it changes
# the per-epoch histogram in place, prints the running `.item()` total while the loop runs, counts
# optimizer steps from a post-step hook registered with the library, and halves a module's input
# in place from a forward pre-hook the local module installs on the module it is handed.
import torch
import torch.nn as nn

import tracking

torch.manual_seed(0)
torch.set_num_threads(1)
xs = torch.randn(4, 3)

epochs = []
for epoch in range(3):
    hist = torch.zeros(3)
    for x in xs:
        tracking.record(x)
    epochs.append(round(hist.sum().item(), 4))
print("histogram", epochs)

model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
tracking.attach(opt)
counts = []
for epoch in range(2):
    steps = torch.zeros(1)
    total = 0.0
    for i, x in enumerate(xs):
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
        tracking.log_total(i)
    counts.append(int(steps.item()))
print("steps", counts)

probe = nn.Linear(3, 3)
tracking.install(probe)
outs = []
for x in xs:
    base = torch.ones(3)
    outs.append(round(probe(base).sum().item(), 4))
    outs.append(round(base.sum().item(), 4))
print("probe", outs)
