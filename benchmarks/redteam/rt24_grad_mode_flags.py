# corpus: runnable
# Red team 24: evaluation loops whose meaning depends on the grad mode: a forward that reads
# `torch.is_grad_enabled()`, `torch.set_grad_enabled(False)` called as a statement (it stays set
# after the loop), outputs whose `requires_grad` is recorded, an input-gradient (saliency) pass
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(24)
device = "cuda" if torch.cuda.is_available() else "cpu"


class Gated(nn.Module):
    """Adds noise-free regularisation only while gradients are recorded (a training-only path)."""

    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(5, 3)
        self.calls_with_grad = 0

    def forward(self, x):
        if torch.is_grad_enabled():
            self.calls_with_grad += 1
            return self.fc(x) * 0.5
        return self.fc(x)


model = Gated().to(device)
val = [torch.randn(4, 5, device=device) for _ in range(3)]
model.eval()
sums = []
for xb in val:
    out = model(xb)
    sums.append(round(out.sum().item(), 5))
print("gated", sums, model.calls_with_grad)

flags = []
for xb in val:
    out = model.fc(xb)
    flags.append(out.requires_grad)
print("requires_grad", flags)

net = nn.Linear(5, 2).to(device)
net.eval()
outs = []
for xb in val:
    torch.set_grad_enabled(False)
    outs.append(net(xb))
after = nn.Linear(2, 1).to(device)(torch.ones(1, 2, device=device))
print("mode after the loop", torch.is_grad_enabled(), after.requires_grad, round(torch.cat(outs).sum().item(), 5))
torch.set_grad_enabled(True)

tot = []
for xb in val:
    xr = xb.clone().requires_grad_()
    score = net(xr).sum()
    tot.append(score)
grads = torch.autograd.grad(sum(tot), net.weight) if tot[0].requires_grad else (torch.zeros(1),)
print("saliency", round(grads[0].abs().sum().item(), 5))
