# corpus: runnable
"""Running averages of the loss kept as Python floats, started on the first step: minDiffusion's
`if loss_ema is None: loss_ema = loss.item() else: loss_ema = 0.9 * loss_ema + 0.1 * loss.item()`,
and a two-task step that logs whichever task the batch belongs to (`if task == 0: ... loss.item()
else: ... aux.item()`). One arm or the other runs on every step, so each step copies a value to
the host. Near-misses: only the first step copies (the other arm keeps the device tensor), an
`if`/`elif` without `else` on a step counter, both arms every 25 steps."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 8)).to(device)
optim = torch.optim.Adam(model.parameters(), lr=1e-3)
data = torch.randn(512, 8)

loss_ema = None
for i in range(0, 512, 16):
    x = data[i:i + 16].to(device)
    noise = torch.randn_like(x)
    loss = F.mse_loss(model(x + noise), noise)
    optim.zero_grad()
    loss.backward()
    if loss_ema is None:
        loss_ema = loss.item()  # paef: expect host-sync
    else:
        loss_ema = 0.9 * loss_ema + 0.1 * loss.item()  # paef: expect host-sync
    optim.step()
print(f"loss_ema {loss_ema:.4f}")

heads = nn.ModuleList([nn.Linear(8, 1), nn.Linear(8, 3)]).to(device)
opt2 = torch.optim.SGD(list(model.parameters()) + list(heads.parameters()), lr=0.01)
seen = {0: 0.0, 1: 0.0}
for step in range(40):
    task = step % 2
    x = torch.randn(16, 8, device=device)
    z = model(x)
    if task == 0:
        loss = F.mse_loss(heads[0](z).squeeze(1), x.sum(1))
        seen[0] += loss.item()  # paef: expect host-sync
    else:
        aux = F.cross_entropy(heads[1](z), (x[:, 0] > 0).long())
        loss = aux
        seen[1] += aux.item()  # paef: expect host-sync
    opt2.zero_grad()
    loss.backward()
    opt2.step()
print({k: round(v, 3) for k, v in seen.items()})

running = None
for step in range(40):
    x = torch.randn(16, 8, device=device)
    loss = F.mse_loss(model(x), x)
    opt2.zero_grad()
    loss.backward()
    opt2.step()
    if running is None:
        running = loss.item()
    else:
        running = 0.9 * running + 0.1 * loss.detach()
    if step == 0:
        first = loss.item()
    elif step == 39:
        last = loss.item()
    if step % 25 == 0:
        shown = loss.item()
    else:
        shown = None
print(round(float(running), 4), round(first, 4), round(last, 4))
