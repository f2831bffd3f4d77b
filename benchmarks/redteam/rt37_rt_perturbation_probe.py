# corpus: runnable
# Red team 37 (blind): sharpness probe during training (SAM-like): every step a fresh zero perturbation
# that requires grad is built for the first layer's weight, the perturbed loss is back-propagated into it,
# and its gradient norm is logged. A fixed position table is also rebuilt each step.
import torch
import torch.nn as nn

torch.manual_seed(13)
torch.set_num_threads(1)

net = nn.Sequential(nn.Linear(6, 12), nn.Tanh(), nn.Linear(12, 1))
opt = torch.optim.SGD(net.parameters(), lr=0.05)
x = torch.randn(40, 6)
y = torch.randn(40, 1)
W_SHAPE = (12, 6)

for step in range(5):
    delta = torch.zeros(W_SHAPE, requires_grad=True)
    pos = torch.arange(40.0) / 40
    h = torch.tanh(nn.functional.linear(x, net[0].weight + delta, net[0].bias))
    probe = ((net[2](h) - y) ** 2 * (1 + pos[:, None])).mean()
    probe.backward()
    sharp = delta.grad.norm().item()
    opt.step()
    opt.zero_grad()
    loss = ((net(x) - y) ** 2).mean()
    loss.backward()
    opt.step()
    opt.zero_grad()
    print(step, f"{loss.item():.12f}", f"{sharp:.12f}", delta.grad is None)
