# corpus: runnable
# Red team 58 probe (not blind): curiosity-driven exploration: rewards come from a host-side environment object
# (CPU float32 tensors), a curiosity model on the device is trained on each transition, and the episode score
# adds the host reward and the device bonus into one Python accumulator (two statements), and a second
# accumulator takes the host reward alone.
import random
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(5827)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'
curiosity = nn.Linear(3, 3).to(device)
opt = torch.optim.SGD(curiosity.parameters(), lr=0.05)
rng = random.Random(0)


class Env:
    def __init__(self):
        self.s = torch.zeros(3)

    def reset(self):
        self.s = torch.randn(3)
        return self.s

    def step(self, a):
        self.s = self.s * 0.9 + (a - 0.5)
        return self.s, -(self.s ** 2).sum()


env = Env()
returns = []
for ep in range(4):
    s = env.reset()
    score = 0.0
    host_only = 0.0
    for t in range(6):
        a = rng.randrange(2)
        s2, reward = env.step(a)
        pred = curiosity(s.to(device))
        bonus = F.mse_loss(pred, s2.to(device))
        opt.zero_grad()
        bonus.backward()
        opt.step()
        score += bonus.item()
        score += reward.item()
        host_only += reward.item()
        s = s2
    returns.append(score + host_only)
print("checksum", [round(r, 5) for r in returns])
