# corpus: runnable
"""A CPU-only DQN on a toy chain environment whose replay buffer keeps one Python list per field
and converts every list whole on each sample before picking the batch (check 19's p03 shape,
written here for stop 36)."""
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class ChainEnv:
    def __init__(self, n=6):
        self.n = n
        self.pos = 0

    def reset(self):
        self.pos = 0
        return self._obs()

    def _obs(self):
        return [1.0 if i == self.pos else 0.0 for i in range(self.n)]

    def step(self, action):
        self.pos = min(self.n - 1, self.pos + 1) if action == 1 else max(0, self.pos - 1)
        done = self.pos == self.n - 1
        return self._obs(), (1.0 if done else -0.01), done


class Replay:
    def __init__(self, size):
        self.states, self.actions, self.rewards, self.next_states, self.dones = [], [], [], [], []
        self.size = size

    def push(self, s, a, r, s2, d):
        self.states.append(s)
        self.actions.append(a)
        self.rewards.append(r)
        self.next_states.append(s2)
        self.dones.append(d)
        if len(self.states) > self.size:
            for column in (self.states, self.actions, self.rewards, self.next_states, self.dones):
                del column[0]

    def sample(self, batch_size):
        idxs = np.random.randint(len(self.states), size=batch_size)
        s = torch.tensor(self.states)[idxs]  # paef: expect record-buffer
        a = torch.tensor(self.actions)[idxs].view(-1, 1)
        r = torch.tensor(self.rewards)[idxs]
        s2 = torch.tensor(self.next_states)[idxs]
        d = torch.tensor(self.dones, dtype=torch.float32)[idxs]
        return s, a, r, s2, d


random.seed(0)
np.random.seed(0)
torch.manual_seed(0)
env, buf = ChainEnv(), Replay(500)
q = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 2))
opt = torch.optim.Adam(q.parameters(), lr=1e-2)
returns = []
for episode in range(30):
    state, total = env.reset(), 0.0
    for t in range(20):
        if random.random() < 0.2:
            action = random.randrange(2)
        else:
            with torch.no_grad():
                action = int(q(torch.tensor(state)).argmax())
        nxt, reward, done = env.step(action)
        buf.push(state, action, reward, nxt, done)
        state, total = nxt, total + reward
        if len(buf.states) >= 32:
            s, a, r, s2, d = buf.sample(32)
            with torch.no_grad():
                target = r + 0.9 * (1 - d) * q(s2).max(1).values
            loss = F.smooth_l1_loss(q(s).gather(1, a).squeeze(1), target)
            opt.zero_grad()
            loss.backward()
            opt.step()
        if done:
            break
    returns.append(round(total, 2))
print(returns[-5:])
