# corpus: runnable
# Evaluation loops of models whose forward needs autograd: an energy model returning forces
# `-dE/dx` by `torch.autograd.grad` (with `create_graph=self.training`), a PINN residual taking
# `du/dx`, a saliency map built by `requires_grad_()` toggled on the batch. None calls
# `backward`; all print their outputs.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class EnergyNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, pos):
        pos = pos.requires_grad_(True)
        energy = self.net(pos).sum()
        forces = -torch.autograd.grad(energy, pos, create_graph=self.training)[0]
        return energy.detach(), forces


model = EnergyNet().eval()
frames = [torch.randn(4, 3) for _ in range(3)]
fs = []
for pos in frames:
    e, f = model(pos)
    fs.append(round(f.abs().sum().item(), 4))
print("forces", fs)


def residual(net, x):
    x = x.clone().requires_grad_(True)
    u = net(x)
    (du,) = torch.autograd.grad(u.sum(), x)
    return (du - torch.cos(x)).pow(2).mean()


pinn = nn.Sequential(nn.Linear(1, 8), nn.Tanh(), nn.Linear(8, 1))
res = []
for xs in torch.linspace(0, 1, 6).view(3, 2, 1):
    r = residual(pinn, xs)
    res.append(round(r.item(), 5))
print("pinn residual", res)

clf = nn.Linear(3, 2).eval()
sal = []
for x in torch.randn(3, 1, 3):
    x.requires_grad_()
    score = clf(x)[0, 1]
    g = torch.autograd.grad(score, x)[0]
    sal.append([round(v, 4) for v in g.abs().flatten().tolist()])
print("saliency", sal)
