# corpus: runnable
# Red team 25, wave 2: hand-written ReLU forms on float tensors built from integer-looking
# code (`torch.arange` with float bounds or step, `torch.full` with a float fill, an integer
# tensor times a Python float, `type_as` / `.to(dtype)` of a float tensor): the forms keep -0.0
# (`x * (x > 0)`) and map NaN to 0 (`torch.where`), where `torch.relu` gives 0.0 and NaN
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(2525)
model = nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
scale = 0.5
log = []
for step in range(3):
    x = torch.randn(4, 2)
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    ramp = torch.arange(-1.5, 1.5, 0.5)
    log.append(("arange", (ramp * (ramp > 0)).tolist()))
    grid = torch.arange(-2.0, 2.0)
    log.append(("arange_float", (grid * (grid > 0)).tolist()))
    fill = torch.full((3,), -0.5)
    log.append(("full", (fill * (fill > 0)).tolist()))
    ticks = torch.arange(-3, 3) * scale
    log.append(("times_scale", (ticks * (ticks > 0)).tolist()))
    steps = torch.arange(-2, 2).type_as(x)
    log.append(("type_as", (steps * (steps > 0)).tolist()))
    cast = torch.arange(-2, 2).to(x.dtype)
    log.append(("to_dtype", (cast * (cast > 0)).tolist()))
    shifted = torch.arange(-2, 2) - 0.5
    log.append(("minus_half", (shifted * (shifted > 0)).tolist()))
    logs = torch.log(torch.arange(-1, 3))
    log.append(("log", torch.where(logs > 0, logs, 0).tolist()))
    roots = torch.sqrt(torch.arange(-2, 2))
    log.append(("sqrt", torch.where(roots > 0, roots, 0).tolist()))
    ratio = torch.arange(-2, 2) / 2
    log.append(("true_div", (ratio * (ratio > 0)).tolist()))
    log.append(round(loss.item(), 4))
print("float misread", log)
