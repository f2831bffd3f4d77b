# corpus: runnable
# Red team 52 (blind): evaluation of models whose forward needs autograd. A learned potential
# returns energies and forces (forces = -dE/dpos, taken inside forward), a model that keeps a
# memory of features only when gradients are off (`torch.is_grad_enabled()`), and a plain
# classifier head evaluated in eval mode. Each is evaluated after a short fit.
import torch
import torch.nn as nn

torch.manual_seed(5202)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'


class Potential(nn.Module):
    def __init__(self, hidden=24):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def forward(self, pos):
        if not pos.requires_grad:
            pos = pos.clone().requires_grad_(True)
        energy = self.net(pos).sum(dim=(1, 2))
        forces = -torch.autograd.grad(energy.sum(), pos, create_graph=self.training)[0]
        return energy, forces


class MemoryNet(nn.Module):
    """Keeps a bank of recent features at inference, for nearest-neighbour lookups."""

    def __init__(self, d_in, d):
        super().__init__()
        self.enc = nn.Linear(d_in, d)
        self.register_buffer('bank', torch.zeros(0, d))

    def forward(self, x):
        z = torch.tanh(self.enc(x))
        if not torch.is_grad_enabled():
            self.bank = torch.cat([self.bank, z])[-32:]
        return z


def true_energy(pos):
    return (pos ** 2).sum(dim=(1, 2))


pos = torch.randn(40, 4, 3, device=device)
model = Potential().to(device)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(15):
    for i in range(0, 40, 10):
        p = pos[i:i + 10]
        e, f = model(p)
        target_f = -2 * p
        loss = ((e - true_energy(p)) ** 2).mean() + ((f - target_f) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()

model.eval()
test = torch.randn(12, 4, 3, device=device)
e_err, f_err = 0.0, 0.0
for i in range(0, 12, 4):
    p = test[i:i + 4]
    e, f = model(p)
    e_err += (e - true_energy(p)).abs().mean().item()
    f_err += (f + 2 * p).abs().mean().item()
print('potential', round(e_err, 4), round(f_err, 4))

mem = MemoryNet(6, 5).to(device)
data = torch.randn(48, 6, device=device)
mopt = torch.optim.SGD(mem.parameters(), lr=0.05)
for i in range(0, 48, 8):
    z = mem(data[i:i + 8])
    loss = (z.pow(2).sum(1) - 1).pow(2).mean()
    mopt.zero_grad()
    loss.backward()
    mopt.step()
mem.eval()
sims = []
for i in range(0, 48, 12):
    z = mem(data[i:i + 12])
    sims.append(z.norm(dim=1).mean().item())
print('memory', mem.bank.shape[0], [round(s, 4) for s in sims])

clf = nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Dropout(0.3), nn.Linear(8, 3)).to(device)
clf.eval()
labels = []
for i in range(0, 48, 16):
    labels.extend(clf(data[i:i + 16]).argmax(1).tolist())
print('labels', sum(labels))
print('checksum', round(e_err + f_err + sum(sims) + mem.bank.sum().item() + sum(labels), 4))
