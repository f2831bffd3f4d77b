# corpus: runnable
# `torch.f(...).to(x)` where `x` is not a device: another tensor (its dtype and device), a dtype
# held in a name that reads like a device, a `(device, dtype)` pair, a keyword `dtype=`, a
# `copy=True`, an int device, a string, a property returning the parameters' dtype, a
# `non_blocking=True` move and `memory_format=`.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
ref = torch.randn(3, dtype=torch.float64)
dev = torch.float64
target = torch.float16 if False else torch.int64


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 1).double()

    @property
    def device(self):
        return next(self.parameters()).dtype


net = Net()
for step in range(2):
    a = torch.ones(3).to(ref)
    b = torch.zeros(3).to(dev)
    c = torch.arange(3).to("cpu", torch.float32)
    d = torch.full((3,), 2.5).to(target)
    e = torch.ones(3).to(net.device)
    f = torch.eye(2).to(0 if torch.cuda.is_available() else "cpu", non_blocking=True)
    g = torch.ones(1, 3, 2, 2).to(memory_format=torch.channels_last)
    h = torch.zeros(3).to(ref.device, copy=True)
    print(a.dtype, b.dtype, c.dtype, d, e.dtype, f.sum().item(), g.stride(), h.dtype)
    print((a / 3).tolist(), (b + 1 / 3).tolist(), (c / 3).tolist(), (e / 3).tolist())
