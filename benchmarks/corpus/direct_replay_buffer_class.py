# corpus: runnable
"""DQN on a toy grid with the common ReplayBuffer class: a deque of tuples, sampled with
random.sample and unzipped into arrays on every update."""
import random
from collections import deque

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

random.seed(0)
np.random.seed(0)
torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"


class ReplayBuffer:
    def __init__(self, capacity):
        self.buffer = deque(maxlen=capacity)

    def push(self, state, action, reward, next_state, done):
        self.buffer.append((state, action, reward, next_state, done))

    def sample(self, batch_size):
        batch = random.sample(self.buffer, batch_size)  # paef: expect record-buffer
        state, action, reward, next_state, done = map(np.stack, zip(*batch))
        return state, action, reward, next_state, done

    def __len__(self):
        return len(self.buffer)


class Grid:
    def __init__(self, size=5):
        self.size, self.pos = size, 0

    def reset(self):
        self.pos = 0
        return self.obs()

    def obs(self):
        one_hot = np.zeros(self.size, dtype=np.float32)
        one_hot[self.pos] = 1.0
        return one_hot

    def step(self, action):
        self.pos = min(self.size - 1, max(0, self.pos + (1 if action == 1 else -1)))
        done = self.pos == self.size - 1
        return self.obs(), (1.0 if done else -0.05), done


env = Grid()
q_net = nn.Sequential(nn.Linear(5, 32), nn.ReLU(), nn.Linear(32, 2)).to(device)
target_net = nn.Sequential(nn.Linear(5, 32), nn.ReLU(), nn.Linear(32, 2)).to(device)
target_net.load_state_dict(q_net.state_dict())
opt = torch.optim.Adam(q_net.parameters(), lr=1e-2)
memory = ReplayBuffer(500)
state = env.reset()
returns, episode_return = [], 0.0
for step in range(400):
    if random.random() < max(0.05, 1.0 - step / 200):
        action = random.randrange(2)
    else:
        with torch.no_grad():
            action = int(q_net(torch.as_tensor(state, device=device)).argmax())  # paef: ok host-sync
    next_state, reward, done = env.step(action)
    memory.push(state, action, reward, next_state, float(done))
    episode_return += reward
    state = env.reset() if done else next_state
    if done:
        returns.append(episode_return)
        episode_return = 0.0
    if len(memory) >= 32:
        s, a, r, s2, d = memory.sample(32)
        s, s2 = torch.as_tensor(s, device=device), torch.as_tensor(s2, device=device)
        a = torch.as_tensor(a, device=device)
        r = torch.as_tensor(r, dtype=torch.float32, device=device)
        d = torch.as_tensor(d, dtype=torch.float32, device=device)
        with torch.no_grad():
            y = r + 0.9 * (1 - d) * target_net(s2).max(1).values
        q = q_net(s).gather(1, a[:, None]).squeeze(1)
        loss = F.smooth_l1_loss(q, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    if step % 50 == 0:
        target_net.load_state_dict(q_net.state_dict())
print("episodes", len(returns), "last return", round(returns[-1], 3) if returns else None)
