# corpus: runnable
# Red team 44 probe (after first contact, not blind): an optimizer step post-hook writes the last logged
# losses as JSON; the loop fills the list with .item() values and converts it with torch.tensor at the end.
import json

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

g = torch.Generator().manual_seed(3)
X = torch.randn(48, 4, generator=g)
Y = torch.randint(0, 3, (48,), generator=g)
loader = [(X[i:i + 8].to(device), Y[i:i + 8].to(device)) for i in range(0, 48, 8)]
model = nn.Linear(4, 3).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
losses = []
lines = []
opt.register_step_post_hook(lambda optimizer, args, kwargs: lines.append(json.dumps(losses[-2:])))
for epoch in range(2):
    for x, y in loader:
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
print("mean %.10f" % torch.tensor(losses).mean().item())
print(lines[-3:])
