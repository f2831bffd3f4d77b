# corpus: runnable
# Evaluation loops whose outputs' autograd state reaches the printed results through Python:
# `grad_fn is None` tests, `requires_grad` as a dict key, the name of the grad function, and a
# forward that asks `torch._C.is_grad_enabled()` / `torch.is_inference_mode_enabled()`.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class Gate(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 3)

    def forward(self, x):
        if torch._C.is_grad_enabled():
            return self.lin(x)
        return self.lin(x) * 0


model = Gate().eval()
batches = [torch.randn(2, 3) for _ in range(3)]
kinds = {}
names = []
vals = []
for xb in batches:
    out = model(xb)
    kinds[out.requires_grad] = kinds.get(out.requires_grad, 0) + 1
    names.append(type(out.grad_fn).__name__)
    vals.append(round(out.sum().item(), 5))
print("kinds", kinds, "names", names, "vals", vals)

plain = nn.Linear(3, 1).eval()
detached = 0
for xb in batches:
    y = plain(xb)
    if y.grad_fn is None:
        detached += 1
print("detached", detached)
