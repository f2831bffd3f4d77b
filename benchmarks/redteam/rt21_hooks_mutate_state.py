# corpus: runnable
# Red team 21: hooks and callbacks that change state the loop reads. A full backward hook appends
# to a list a tensor is built from, an optimizer step pre/post hook changes a dict of scales, a
# tensor gradient hook scales grads and writes a Python total, a forward pre hook changes the
# module's own attribute that a per-step tensor reads, a hook reads a running `.item()` total.
import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(21)
device = "cuda" if torch.cuda.is_available() else "cpu"
data = [(torch.randn(8, 4), torch.randn(8, 2)) for _ in range(5)]

# 1. full backward hook appends to a list; the loop builds a tensor from that list
model = nn.Linear(4, 2).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
grad_norms = [1.0, 1.0]


def record_grad(module, grad_input, grad_output):
    grad_norms[0] = grad_norms[0] + float(grad_output[0].norm())


model.register_full_backward_hook(record_grad)
out1 = []
for x, y in data:
    w = torch.tensor(grad_norms, device=device)
    loss = F.mse_loss(model(x.to(device)) * w, y.to(device))
    opt.zero_grad()
    loss.backward()
    opt.step()
    out1.append(round(loss.item(), 5))
print("backward hook", out1)

# 2. optimizer step post hook changes a dict entry the loop turns into a tensor
model2 = nn.Linear(4, 2).to(device)
opt2 = torch.optim.SGD(model2.parameters(), lr=0.05)
cfg = {"scale": [1.0, 0.5]}


def bump(optimizer, args, kwargs):
    cfg["scale"][1] += 0.25


opt2.register_step_post_hook(bump)
out2 = []
for x, y in data:
    s = torch.tensor(cfg["scale"], device=device)
    loss = F.mse_loss(model2(x.to(device)) * s, y.to(device))
    opt2.zero_grad()
    loss.backward()
    opt2.step()
    out2.append(round(loss.item(), 5))
print("step hook", out2)

# 3. forward pre hook changes an attribute of a plain object the loop reads
class Temp:
    def __init__(self):
        self.values = [1.0, 2.0]


temp = Temp()
model3 = nn.Linear(4, 2).to(device)
opt3 = torch.optim.SGD(model3.parameters(), lr=0.05)


def cool(module, inputs):
    temp.values[0] *= 0.5


model3.register_forward_pre_hook(cool)
out3 = []
for x, y in data:
    t = torch.tensor(temp.values, device=device)
    loss = F.mse_loss(model3(x.to(device)) / t, y.to(device))
    opt3.zero_grad()
    loss.backward()
    opt3.step()
    out3.append(round(loss.item(), 5))
print("pre hook", out3)

# 4. a gradient hook on the weight writes into a buffer the loop copies to a tensor
model4 = nn.Linear(4, 2).to(device)
opt4 = torch.optim.SGD(model4.parameters(), lr=0.05)
gstats = [0.0, 0.0]


def clip_and_log(g):
    gstats[1] = gstats[1] + 1.0
    return g * 0.5


model4.weight.register_hook(clip_and_log)
out4 = []
for x, y in data:
    k = torch.tensor(gstats, device=device) + 1.0
    loss = F.mse_loss(model4(x.to(device)) * k.mean(), y.to(device))
    opt4.zero_grad()
    loss.backward()
    opt4.step()
    out4.append(round(loss.item(), 5))
print("tensor hook", out4)

# 5. a step hook reads the running total (formats it)
model5 = nn.Linear(4, 2).to(device)
opt5 = torch.optim.SGD(model5.parameters(), lr=0.05)
log5 = []
running = 0.0


def log_running(optimizer, args, kwargs):
    log5.append(repr(running))


opt5.register_step_pre_hook(log_running)
for x, y in data:
    loss = F.mse_loss(model5(x.to(device)), y.to(device))
    opt5.zero_grad()
    loss.backward()
    opt5.step()
    running += loss.item()
print("hook reads total", log5, running)

# 6. a forward hook reads the running total through a global
model6 = nn.Linear(4, 2).to(device)
opt6 = torch.optim.SGD(model6.parameters(), lr=0.05)
seen6 = []
total6 = 0.0


def fwd_log(module, inputs, output):
    seen6.append(type(total6).__name__)


model6.register_forward_hook(fwd_log)
for x, y in data:
    loss = F.mse_loss(model6(x.to(device)), y.to(device))
    opt6.zero_grad()
    loss.backward()
    opt6.step()
    total6 += loss.item()
print("forward hook reads total", seen6, round(total6, 6))
