# corpus: runnable
# WGAN-GP: n_critic critic steps per generator step, a gradient penalty taken with
# `torch.autograd.grad(create_graph=True)` on random interpolates, `grad_outputs` built per step,
# Wasserstein estimates summed as floats, a penalty history kept as tensors and stacked.
import torch
from torch import autograd, nn

torch.set_num_threads(1)
torch.manual_seed(1)
device = "cuda" if torch.cuda.is_available() else "cpu"
nz, bs, n_critic, lambda_gp = 3, 8, 2, 10.0

G = nn.Sequential(nn.Linear(nz, 16), nn.Tanh(), nn.Linear(16, 2)).to(device)
C = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 1)).to(device)
optC = torch.optim.Adam(C.parameters(), lr=1e-3, betas=(0.0, 0.9))
optG = torch.optim.Adam(G.parameters(), lr=1e-3, betas=(0.0, 0.9))
data = [torch.randn(bs, 2) + 1.0 for _ in range(8)]


def gradient_penalty(critic, real, fake):
    alpha = torch.rand(real.size(0), 1, device=real.device)
    interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    score = critic(interp)
    grad_outputs = torch.ones(real.size(0), 1, device=real.device)
    grads = autograd.grad(score, interp, grad_outputs=grad_outputs, create_graph=True, retain_graph=True)[0]
    return ((grads.norm(2, dim=1) - 1) ** 2).mean()


w_total = 0.0
gps = []
for i, real in enumerate(data):
    real = real.to(device)
    for _ in range(n_critic):
        z = torch.randn(bs, nz, device=device)
        fake = G(z).detach()
        gp = gradient_penalty(C, real, fake)
        lossC = C(fake).mean() - C(real).mean() + lambda_gp * gp
        optC.zero_grad()
        lossC.backward()
        optC.step()
        gps.append(gp.detach())
        w_total += (C(real).mean() - C(fake).mean()).item()
    z = torch.randn(bs, nz, device=device)
    lossG = -C(G(z)).mean()
    optG.zero_grad()
    lossG.backward()
    optG.step()
print("w", repr(w_total), torch.stack(gps).mean().item())

# a penalty measured on held-out pairs (no step, but autograd.grad needs the graph)
pen = 0.0
for real in data[:3]:
    real = real.to(device)
    fake = G(torch.randn(bs, nz, device=device))
    pen += gradient_penalty(C, real, fake).item()
print("held-out gp", repr(pen))

# grad-norm of the critic w.r.t. its inputs, summed per batch, in a loop without backward
norm_sum = 0.0
ones = None
for real in data[:3]:
    x = real.to(device).clone().requires_grad_(True)
    out = C(x)
    g, = autograd.grad(out.sum(), x)
    norm_sum += g.norm().item()
print("norms", repr(norm_sum))
