# corpus: runnable
# torch functions replaced through the module's dict: `vars(torch)["stack"] = f`,
# `torch.__dict__["relu"] = g`, `setattr(torch, name, ...)` in a loop over names,
# `F.__dict__.update(relu=...)`. Rewrites that call the patched function (list-to-tensor's
# `torch.stack`, operator-fusion's `torch.relu`) change the output. Everything is restored at
# the end, so the program leaves torch as it found it.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
_saved = {name: getattr(torch, name) for name in ("stack", "relu", "cat")}
_saved_F = F.relu


def doubled_stack(ts, dim=0, *, out=None):
    return _saved["stack"](ts, dim=dim) * 2


def leaky(x, *a, **k):
    return torch.where(x > 0, x, 0.5 * x)


try:
    vars(torch)["stack"] = doubled_stack
    losses = []
    for step in range(3):
        losses.append(torch.randn(()).abs())
    vals = torch.tensor([l.item() for l in losses])
    print("vars(torch) stack", vals.tolist())

    torch.__dict__["relu"] = leaky
    x = torch.linspace(-1, 1, 5)
    y = x * (x > 0)
    print("__dict__ relu", y.tolist())

    for name in ("stack",):
        setattr(torch, name, doubled_stack)
    parts = [torch.tensor(float(i)) for i in range(3)]
    print("setattr loop", torch.tensor([p.item() for p in parts]).tolist())

    F.__dict__.update(relu=leaky)
    z = torch.linspace(-2, 2, 5)
    print("F dict update", (z * (z > 0)).tolist(), torch.clamp(z, min=0).tolist())
finally:
    for name, fn in _saved.items():
        setattr(torch, name, fn)
    F.relu = _saved_F
