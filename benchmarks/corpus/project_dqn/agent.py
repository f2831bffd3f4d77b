"""Epsilon-greedy Q-network agent."""
import random

import torch
import torch.nn as nn


class QNet(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 32), nn.ReLU(), nn.Linear(32, n_actions))

    def forward(self, x):
        return self.net(x)


def select_action(qnet, state, epsilon, n_actions, rng, device):
    if rng.random() < epsilon:
        return torch.tensor([[rng.randrange(n_actions)]], device=device)
    with torch.no_grad():
        return qnet(torch.tensor([state], device=device)).argmax(1, keepdim=True)
