# corpus: runnable
"""REINFORCE with a running-reward baseline on a small NumPy corridor environment (move
left/right, reward at the right end): log-probs collected per step, discounted returns
computed backwards in Python and normalised, one policy update per episode."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
GAMMA = 0.97
EPS = np.finfo(np.float32).eps.item()


class Corridor:
    def __init__(self, length=8, seed=0):
        self.length, self.rng = length, np.random.RandomState(seed)

    def reset(self):
        self.pos, self.t = 0, 0
        return self._obs()

    def _obs(self):
        o = np.zeros(self.length, dtype=np.float32)
        o[self.pos] = 1.0
        return o + 0.01 * self.rng.randn(self.length).astype(np.float32)

    def step(self, action):
        self.pos = min(max(self.pos + (1 if action == 1 else -1), 0), self.length - 1)
        self.t += 1
        done = self.pos == self.length - 1 or self.t >= 30
        return self._obs(), (1.0 if self.pos == self.length - 1 else -0.01), done


class Policy(nn.Module):
    def __init__(self, n_obs, n_act=2):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(n_obs, 32), nn.Linear(32, n_act)

    def forward(self, x):
        return F.softmax(self.fc2(F.relu(self.fc1(x))), dim=1)


env = Corridor()
policy = Policy(env.length).to(device)
optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)
running_reward = 0.0
for episode in range(60):
    state, ep_reward, done = env.reset(), 0.0, False
    log_probs, rewards = [], []
    while not done:
        probs = policy(torch.from_numpy(state).unsqueeze(0).to(device))  # paef: ok pageable-transfer
        m = Categorical(probs)
        action = m.sample()
        log_probs.append(m.log_prob(action))
        state, reward, done = env.step(action.item())  # paef: ok host-sync
        rewards.append(reward)
        ep_reward += reward
    R, returns = 0.0, []
    for r in reversed(rewards):
        R = r + GAMMA * R
        returns.insert(0, R)
    returns = torch.tensor(returns, device=device)
    returns = (returns - returns.mean()) / (returns.std() + EPS)
    loss = torch.cat([-lp * ret for lp, ret in zip(log_probs, returns)]).sum()  # paef: expect list-to-tensor; ok elementwise-loop
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    running_reward = 0.05 * ep_reward + 0.95 * running_reward
    if episode % 20 == 0:
        print(f"episode {episode} reward {ep_reward:.2f} running {running_reward:.3f}")
print(f"final running reward {running_reward:.3f}")
