"""Fixed: the running mean stays a tensor."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
OBS, ACT = 2048, 6


class RunningMean:
    def __init__(self, dim):
        self.mean = torch.zeros(dim)
        self.count = 0

    def update(self, batch):
        self.count += 1
        self.mean = self.mean + (batch.mean(dim=0) - self.mean) / self.count

    def normalize(self, batch):
        return batch - self.mean


norm = RunningMean(OBS)
policy = nn.Sequential(nn.Linear(OBS, 16), nn.Tanh(), nn.Linear(16, ACT))
opt = torch.optim.Adam(policy.parameters(), lr=3e-4)
obs = torch.randn(40, 32, OBS)
actions = torch.randn(40, 32, ACT)
for epoch in range(3):
    for i in range(len(obs)):
        norm.update(obs[i])
        pred = policy(norm.normalize(obs[i]))
        loss = F.mse_loss(pred, actions[i])
        opt.zero_grad()
        loss.backward()
        opt.step()
print(f"loss {loss.item():.4f}")
