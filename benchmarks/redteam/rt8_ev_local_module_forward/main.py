# corpus: runnable
# The models live in a local module; two of their forwards ask autograd for something (a PINN
# residual, `retain_grad()` on a hidden state), the third is a plain forward (near-miss).
import torch

from physics import PINN, Plain, Probe

torch.manual_seed(0)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"

pinn = PINN().to(device)
grid = [torch.linspace(0, 1, 5).view(-1, 1) + i for i in range(3)]
residuals = []
for t in grid:
    r = pinn(t.to(device))
    residuals.append(round(r.abs().mean().item(), 5))
print("residuals", residuals)

probe = Probe().to(device)
xs = [torch.randn(2, 4) for _ in range(3)]
kept = []
for x in xs:
    out = probe(x.to(device))
    kept.append(probe.hidden.requires_grad)
print("kept", kept)

plain = Plain().to(device)
scores = []
for x in xs:
    scores.append(round(plain(x.to(device)).max().item(), 5))
print("scores", scores)
