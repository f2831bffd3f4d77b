# corpus: runnable
# A TorchFunctionMode of the program casts every factory to float64 and counts the calls it sees
# (a "precision audit" some training scripts use). Factories built inside the mode's `with` are
# float64 and counted; moved out of the `with` they would be float32 and not counted.
import torch
from torch.overrides import TorchFunctionMode

torch.manual_seed(0)
torch.set_num_threads(1)


class Float64Factories(TorchFunctionMode):
    seen = 0

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = dict(kwargs or {})
        if func in (torch.zeros, torch.ones, torch.full, torch.tensor, torch.arange):
            kwargs.setdefault("dtype", torch.float64)
            Float64Factories.seen += 1
        return func(*args, **kwargs)


xs = torch.randn(5, 3) * 1e-3 + 1.0
report = []
for epoch in range(3):
    with Float64Factories():
        scale = torch.full((3,), 1.0 / 3.0)
        acc = torch.zeros(3)
    for x in xs:
        acc = acc + x * scale
    report.append((str(acc.dtype), acc.sum().item()))
print(report, Float64Factories.seen)

audit = Float64Factories()
report2 = []
for epoch in range(2):
    with audit:
        steps = torch.arange(4) / 3
    report2.append((str(steps.dtype), steps.sum().item()))
print(report2, Float64Factories.seen)
