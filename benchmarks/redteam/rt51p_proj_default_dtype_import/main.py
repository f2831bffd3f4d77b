# corpus: runnable
# Red team 51 probe (NOT blind: written after first contact, aimed at the list-to-tensor and ping-pong dtype
# proofs): the default dtype is set to float64 by importing a local settings module (config.py), out of the
# entry's sight. The model runs in float32 (explicit dtype), per-step values are read with .item() into lists
# and snapshots made with torch.tensor(...), whose dtype follows the default.
import torch
import torch.nn as nn

import config

torch.manual_seed(config.SEED)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

g = torch.Generator().manual_seed(63)
X = torch.randn(48, 4, generator=g, dtype=torch.float32)
Y = (X[:, :2].sum(1, keepdim=True) > 0).to(torch.float32)
model = nn.Linear(4, 1, dtype=torch.float32).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.2)

best = torch.tensor(float('inf'))
for epoch in range(config.EPOCHS):
    losses = []
    for i in range(0, 48, 12):
        loss = nn.functional.binary_cross_entropy_with_logits(model(X[i:i + 12].to(device)), Y[i:i + 12].to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    hist = torch.tensor(losses)
    last = torch.tensor(loss.item())
    if last < best:
        best = last
    print(epoch, hist.dtype, f'{hist.mean().item():.12f}', last.dtype, repr(best))
