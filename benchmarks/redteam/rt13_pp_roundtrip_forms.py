# corpus: runnable
# Device -> host -> device round trips where staying on the device is not the same value:
# a tensor subclass (`torch.tensor(list)` gives a plain Tensor), a `Parameter`, a conjugate view,
# a tensor with negative bit set, int32 and bool sources (`torch.tensor(list)` picks int64 / bool),
# a round trip through NumPy with a dtype change.
import torch
import torch.nn as nn

torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"


class Tagged(torch.Tensor):
    pass


base = torch.arange(6, dtype=torch.float32).reshape(2, 3).to(device)
tagged = base.as_subclass(Tagged)
param = nn.Parameter(torch.ones(3, device=device))
zc = torch.tensor([1 + 2j, 3 - 1j], device=device).conj()
i32 = torch.arange(4, dtype=torch.int32, device=device)
out = []
for step in range(2):
    a = torch.tensor(tagged.cpu().tolist(), device=device)
    b = torch.tensor(param.detach().cpu().tolist(), device=device)
    c = torch.tensor(zc.cpu().tolist(), device=device)
    d = torch.tensor(i32.cpu().tolist(), device=device)
    e = torch.tensor(i32.cpu().numpy(), device=device)
    f = torch.as_tensor(base.cpu().numpy().astype("float64"), device=device)
    out.append([type(a).__name__, a.sum().item(), b.tolist(), c.is_conj(), c.tolist(), d.dtype, e.dtype, f.dtype])
for r in out:
    print(r)
