# corpus: runnable
"""DQN on a toy chain environment with a preallocated tensor replay buffer (ring index)."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

random.seed(0)
torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"


class ChainEnv:
    """Walk left/right on a chain of 8 states; reward at the right end."""

    def __init__(self, n=8):
        self.n, self.pos = n, 0

    def reset(self):
        self.pos = 0
        return self._obs()

    def _obs(self):
        return [1.0 if i == self.pos else 0.0 for i in range(self.n)]

    def step(self, action):
        self.pos = max(0, min(self.n - 1, self.pos + (1 if action == 1 else -1)))
        done = self.pos == self.n - 1
        return self._obs(), (1.0 if done else -0.01), done, {}


class ReplayBuffer:
    def __init__(self, capacity, obs_dim):
        self.obs = torch.zeros(capacity, obs_dim, device=device)
        self.next_obs = torch.zeros(capacity, obs_dim, device=device)
        self.action = torch.zeros(capacity, dtype=torch.long, device=device)
        self.reward = torch.zeros(capacity, device=device)
        self.done = torch.zeros(capacity, device=device)
        self.capacity, self.ptr, self.size = capacity, 0, 0

    def add(self, o, a, r, o2, d):
        i = self.ptr
        self.obs[i], self.action[i], self.reward[i], self.next_obs[i], self.done[i] = o, a, r, o2, d
        self.ptr, self.size = (i + 1) % self.capacity, min(self.size + 1, self.capacity)

    def sample(self, n):
        idx = torch.randint(0, self.size, (n,), device=device)
        return self.obs[idx], self.action[idx], self.reward[idx], self.next_obs[idx], self.done[idx]


env = ChainEnv()
q = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 2)).to(device)
target_q = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 2)).to(device)
target_q.load_state_dict(q.state_dict())
opt = torch.optim.Adam(q.parameters(), lr=1e-2)
buf = ReplayBuffer(500, 8)

obs = torch.tensor(env.reset(), device=device)
episodes, steps = 0, 0
for t in range(300):
    if random.random() < max(0.05, 1 - t / 200):
        action = random.randrange(2)
    else:
        with torch.no_grad():
            action = q(obs.unsqueeze(0)).argmax(1).item()
    nxt, reward, done, _ = env.step(action)
    nxt_t = torch.tensor(nxt, device=device)
    buf.add(obs, action, reward, nxt_t, float(done))
    obs = torch.tensor(env.reset(), device=device) if done else nxt_t
    episodes += done
    if buf.size >= 32:
        o, a, r, o2, d = buf.sample(32)
        with torch.no_grad():
            target = r + 0.9 * (1 - d) * target_q(o2).max(1).values
        loss = F.smooth_l1_loss(q(o).gather(1, a.unsqueeze(1)).squeeze(1), target)
        opt.zero_grad()
        loss.backward()
        opt.step()
    if t % 50 == 0:
        target_q.load_state_dict(q.state_dict())
print(f"episodes finished {episodes}")
print(f"q checksum {sum(p.sum() for p in q.parameters()).item():.4f}")
