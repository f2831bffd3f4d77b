# corpus: runnable
# Gradient accumulation with a GradScaler and gradient clipping: micro-batch losses divided by the
# number of steps, summed into a running total that is also scaled and back-propagated, a
# `clip_grad_norm_` norm (a tensor) kept per step and summed as a Python float, `zero_grad(set_to_none=True)`
# every k steps, and a logged loss that a later statement reads as a tensor.
import torch
from torch import nn
from torch.nn.utils import clip_grad_norm_

torch.set_num_threads(1)
torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
amp_device = "cuda" if device == "cuda" else "cpu"

model = nn.Sequential(nn.Linear(10, 20), nn.ReLU(), nn.Linear(20, 1)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
scaler = torch.amp.GradScaler(amp_device, enabled=False)
accum = 4
micro = [(torch.randn(8, 10), torch.randn(8, 1)) for _ in range(16)]
crit = nn.MSELoss()

norm_total = 0.0
norms = []
logged = []
window = 0
for i, (x, y) in enumerate(micro):
    x, y = x.to(device), y.to(device)
    with torch.autocast(device_type=amp_device, dtype=torch.bfloat16, enabled=False):
        loss = crit(model(x), y) / accum
    window = window + loss
    if (i + 1) % accum == 0:
        scaler.scale(window).backward()
        scaler.unscale_(opt)
        norm = clip_grad_norm_(model.parameters(), max_norm=1.0)
        norm_total += norm.item()
        norms.append(norm)
        scaler.step(opt)
        scaler.update()
        opt.zero_grad(set_to_none=True)
        logged.append(window)
        window = 0
print("norm_total", repr(norm_total))
print("norms", torch.stack(norms).tolist())
print("logged", [round(v.item(), 6) for v in logged], logged[-1].requires_grad)

# second style: backward per micro-batch, total for display only
shown = 0
steps = 0
for i, (x, y) in enumerate(micro):
    x, y = x.to(device), y.to(device)
    loss = crit(model(x), y) / accum
    loss.backward()
    shown += loss
    if (i + 1) % accum == 0:
        gn = clip_grad_norm_(model.parameters(), 0.5, foreach=True)
        opt.step()
        opt.zero_grad(set_to_none=True)
        steps += 1
        print("window", steps, round(float(shown), 6), round(gn.item(), 6))
        shown = 0
print("grad is None", all(p.grad is None for p in model.parameters()))
