# corpus: runnable
# Red team 46 PROBE (not blind, written after first contact): `torch.set_default_device(device)` makes every
# factory without `device=` build on the accelerator (LLM-style scripts do this). Tensors rebuilt from
# `.item()`s / `.tolist()` rows / a fresh list of losses are then on the device in the original program; a
# rewrite that writes `.cpu()` or `device="cpu"` moves them to the host. On a CPU machine nothing differs:
# the harm, if any, is on a GPU.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(29)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'
torch.set_default_device(device)

model = nn.Linear(4, 2).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
X = torch.randn(24, 4)
Y = (X[:, 0] > 0).long()

losses = []
rows = []
for i in range(0, 24, 6):
    out = model(X[i:i + 6].to(device))
    loss = F.cross_entropy(out, Y[i:i + 6])
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
    rows.append(out.detach()[0].tolist())
    recent = torch.tensor([r for r in rows])
    print(i, recent.device, recent.shape)
curve = torch.tensor(losses)
print('curve', curve.device, curve.dtype, ['%.10f' % v for v in curve.tolist()])
weights = torch.linspace(0.5, 1.0, len(losses))
print('weighted %.10f' % (curve * weights).sum().item())

model.eval()
spread = []
for i in range(0, 24, 6):
    spread.append(model(X[i:i + 6]).std().item())
spread_t = torch.tensor(spread)
print('spread', spread_t.device, (spread_t + torch.ones(len(spread))).sum().item())
