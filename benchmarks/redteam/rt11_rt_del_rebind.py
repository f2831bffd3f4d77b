# corpus: runnable
# Names deleted or rebound inside the loop after a constant is built: `del` at the end of the
# body, deletion through `globals().pop`, a rebinding in one branch, a name deleted by a helper
# with `global`, and `del` of an item of the constant.
import torch

torch.set_num_threads(1)
xs = torch.arange(12.0).reshape(4, 3)
out = []
for epoch in range(3):
    scale = torch.tensor([1.0, 2.0, 3.0])
    out.append(round((xs * scale).sum().item(), 4))
    del scale
print("del", out)

out = []
for epoch in range(3):
    offset = torch.ones(3)
    out.append(round((xs + offset).sum().item(), 4))
    globals().pop("offset")
print("globals pop", out)

out = []
for epoch in range(3):
    base = torch.zeros(3)
    if epoch == 1:
        base = base + 5
    for x in xs:
        base = base + x
    out.append(round(base.sum().item(), 4))
print("rebound", out)


def drop():
    global table
    del table


out = []
for epoch in range(3):
    table = torch.linspace(0, 1, 3)
    out.append(round((xs @ table).sum().item(), 4))
    drop()
print("helper del", out)

out = []
for epoch in range(3):
    parts = [torch.ones(2), torch.zeros(2)]
    out.append(len(parts))
    del parts[0]
    out.append(len(parts))
print("del item", out)
