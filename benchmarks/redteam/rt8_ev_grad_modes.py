# corpus: runnable
# Loops without backward that look like evaluation but rely on grad mode: a compiled-style
# wrapper (`torch.func.functional_call`), `set_grad_enabled(True)` inside the body, a model that
# reports `torch.is_grad_enabled()`, a DataParallel model on CPU (a pass-through), a loop whose
# outputs get `requires_grad` checked to choose a code path.
import torch
import torch.nn as nn
from torch.func import functional_call

torch.manual_seed(0)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(4, 2).to(device)
xs = [torch.randn(3, 4) for _ in range(3)]
params = dict(model.named_parameters())

norms = []
for x in xs:
    out = functional_call(model, params, (x.to(device),))
    norms.append(out.requires_grad)
print("functional_call", norms)


class Gated(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        y = self.fc(x)
        return y if torch.is_grad_enabled() else y.detach() * 0


gated = Gated().to(device)
vals = []
for x in xs:
    vals.append(round(gated(x.to(device)).sum().item(), 5))
print("gated", vals)

dp = nn.DataParallel(model)
flags = []
for x in xs:
    o = dp(x.to(device))
    flags.append("graph" if o.grad_fn is not None else "plain")
print("dataparallel", flags)

sums = []
for x in xs:
    o = model(x.to(device))
    sums.append(round(o.sum().item(), 5))
print("plain", sums)
