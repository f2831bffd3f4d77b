# corpus: runnable
# Tensors built in the loop whose identity matters: registered as parameters or buffers,
# added to an optimizer, keyed by `id()`, compared with `is`, kept through a weak reference,
# saved together with `torch.save` (shared storages are saved once and come back shared).
import io
import weakref

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

params = nn.ParameterList()
for k in range(3):
    params.append(nn.Parameter(torch.zeros(2, device=device)))
opt = torch.optim.SGD(params.parameters(), lr=1.0)
loss = sum((p * (i + 1)).sum() for i, p in enumerate(params))
loss.backward()
opt.step()
print("params", [p.tolist() for p in params])

seen = {}
prev = None
same = 0
for step in range(3):
    m = torch.ones(2, device=device)
    seen[id(m)] = step
    same += int(m is prev)
    prev = m
print("ids", len(seen), same)

refs = []
alive = []
for step in range(3):
    buf = torch.zeros(2, device=device)
    refs.append(weakref.ref(buf))
    if step == 0:
        alive.append(buf)
print("alive", sum(r() is not None for r in refs) >= 1)

saved = []
for step in range(3):
    z = torch.zeros(2)
    saved.append(z)
stream = io.BytesIO()
torch.save(saved, stream)
stream.seek(0)
loaded = torch.load(stream)
loaded[0].add_(1)
print("saved", [t.tolist() for t in loaded])

module = nn.Module()
for step in range(2):
    module.register_buffer(f"b{step}", torch.ones(2, device=device))
module.b0.mul_(3)
print("buffers", module.b0.tolist(), module.b1.tolist())

opt2 = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.5)
for step in range(2):
    extra = torch.zeros(2, device=device, requires_grad=True)
    opt2.add_param_group({"params": [extra]})
for group in opt2.param_groups[1:]:
    group["params"][0].grad = torch.ones(2, device=device)
opt2.step()
print("groups", [g["params"][0].tolist() for g in opt2.param_groups[1:]])
