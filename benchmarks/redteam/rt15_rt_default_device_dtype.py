# corpus: runnable
# Default device and dtype switched as statements inside loops, read back through
# `torch.get_default_device()` / `torch.get_default_dtype()` and through an imported alias of
# the setter.
import torch
from torch import set_default_dtype as use_dtype

torch.set_num_threads(1)
kinds = []
for step in range(3):
    on_cpu = torch.tensor(torch.get_default_device().type == "cpu", device="cpu")
    made = torch.zeros(2)
    torch.set_default_device("meta" if step == 0 else "cpu")
    kinds.append((bool(on_cpu), made.device.type))
torch.set_default_device("cpu")
print("on cpu", kinds)

widths = []
for step in range(3):
    width = torch.tensor(torch.get_default_dtype().itemsize)
    use_dtype(torch.float64 if step % 2 == 0 else torch.float32)
    widths.append(int(width))
use_dtype(torch.float32)
print("widths", widths)

vals = []
for step in range(2):
    third = torch.tensor(1.0, dtype=torch.get_default_dtype()) / 3
    use_dtype(torch.float64)
    vals.append(repr(third.item()))
use_dtype(torch.float32)
print("thirds", vals)
