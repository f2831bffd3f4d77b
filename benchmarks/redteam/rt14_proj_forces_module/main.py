# corpus: runnable
# Evaluation loops whose only gradient use is inside a local module's helper
# (`physics.forces`, `physics.penalty` with `create_graph=True`).
import torch
import torch.nn as nn

import physics

torch.manual_seed(0)
torch.set_num_threads(1)
net = nn.Sequential(nn.Linear(3, 6), nn.Tanh(), nn.Linear(6, 1))
net.eval()
out = []
for pos in torch.randn(3, 4, 3):
    f = physics.forces(net, pos)
    out.append(round(f.sum().item(), 5))
print("forces", out)

critic = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 1))
critic.eval()
gps = []
for real, fake in zip(torch.randn(3, 5, 2), torch.randn(3, 5, 2)):
    score = critic(real).mean() - critic(fake).mean()
    gp = physics.penalty(critic, real, fake)
    gps.append((round(score.item(), 4), round(gp.item(), 4)))
print("val gp", gps)
