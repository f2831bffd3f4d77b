# corpus: runnable
# `torch.set_grad_enabled(...)` used as a statement inside loops (a freeze after warm-up, a
# phase switch): values that read the grad mode (`torch.is_grad_enabled()`, an op on a leaf that
# needs grad, `requires_grad=torch.is_grad_enabled()`) change from one step to the next.
import torch
from torch import set_grad_enabled as grad_mode

torch.manual_seed(0)
torch.set_num_threads(1)
w = torch.ones(3, requires_grad=True)

modes = []
for step in range(4):
    enabled = torch.tensor(torch.is_grad_enabled())
    torch.set_grad_enabled(step < 1)
    modes.append(bool(enabled))
torch.set_grad_enabled(True)
print("modes", modes)

tracked = []
for step in range(3):
    scaled = w * 2.0
    grad_mode(False)
    tracked.append(scaled.requires_grad)
grad_mode(True)
print("tracked", tracked)

leaves = []
for step in range(3):
    buf = torch.zeros(2, requires_grad=torch.is_grad_enabled())
    torch.autograd.set_grad_enabled(step == 1)
    leaves.append(buf.requires_grad)
torch.set_grad_enabled(True)
print("leaves", leaves)
