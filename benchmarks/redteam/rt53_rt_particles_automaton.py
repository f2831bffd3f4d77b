# corpus: runnable
# Red team 53 (blind): two simulations stepped in torch. (1) A 2-D particle system under gravity with a
# spring to the origin and wall bounces, integrated by semi-implicit Euler; the gravity vector is built in
# the loop and then scaled in place by a per-step wind gust, the per-step forces are kept in a list.
# (2) A Game-of-Life-like automaton on a torus via conv2d; the neighbourhood kernel is built every
# generation and its centre is written in place with the generation's "self weight", the birth and
# survival tables are built per generation and one is extended on odd generations.
import torch
import torch.nn.functional as F

torch.manual_seed(5304)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

n = 48
pos = torch.randn(n, 2, device=device)
vel = torch.zeros(n, 2, device=device)
mass = torch.rand(n, 1, device=device) + 0.5
dt = 0.02
forces_seen = []
energy = []
gusts = torch.linspace(-0.3, 0.3, 120)
for step in range(120):
    gravity = torch.tensor([0.0, -9.81], device=device)
    gravity[0] += gusts[step].item()
    forces_seen.append(gravity)
    spring = -2.0 * pos
    force = spring + mass * gravity
    vel = vel + dt * force / mass
    pos = pos + dt * vel
    hit = pos.abs() > 3.0
    vel = torch.where(hit, -0.8 * vel, vel)
    pos = pos.clamp(-3.0, 3.0)
    ke = 0.5 * (mass * vel ** 2).sum()
    pe = (pos ** 2).sum() - (mass.squeeze(1) * pos[:, 1] * -9.81).sum()
    energy.append((ke + pe).item())

wind = torch.stack(forces_seen)[:, 0]

grid = (torch.rand(1, 1, 24, 24, device=device) < 0.35).float()
alive_counts = []
for gen in range(30):
    kernel = torch.ones(1, 1, 3, 3, device=device)
    kernel[0, 0, 1, 1] = 1.0 if gen % 3 == 0 else 0.0
    padded = F.pad(grid, (1, 1, 1, 1), mode='circular')
    nb = F.conv2d(padded, kernel)
    births = torch.tensor([3.0], device=device)
    survive = torch.tensor([2.0, 3.0], device=device)
    if gen % 2 == 1:
        survive = torch.cat([survive, torch.tensor([4.0], device=device)])
    born = (grid == 0) & (nb.unsqueeze(-1) == births).any(-1)
    stay = (grid == 1) & (nb.unsqueeze(-1) == survive).any(-1)
    grid = (born | stay).float()
    alive_counts.append(int(grid.sum().item()))

print('energy', round(energy[0], 5), round(energy[-1], 5), round(sum(energy), 4))
print('wind', round(wind.sum().item(), 6), round(wind[:5].abs().sum().item(), 6))
print('pos', round(pos.double().sum().item(), 6), round(vel.double().abs().sum().item(), 6))
print('alive', alive_counts)
