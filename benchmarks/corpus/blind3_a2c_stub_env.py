# corpus: runnable
"""Advantage actor-critic (episodic, REINFORCE with a learned baseline) on a stub
gym-like environment written in NumPy."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

np.random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
gamma, eps = 0.99, np.finfo(np.float32).eps.item()


class Corridor:
    """Agent at a position in [0, 8); goal at 7; observation is a noisy one-hot."""

    def __init__(self, seed=0):
        self.rng = np.random.RandomState(seed)

    def reset(self):
        self.pos, self.t = 0, 0
        return self._obs()

    def _obs(self):
        o = self.rng.normal(0, 0.05, 8).astype(np.float32)
        o[self.pos] += 1.0
        return o

    def step(self, a):
        self.pos = min(7, max(0, self.pos + (1 if a == 1 else -1)))
        self.t += 1
        done = self.pos == 7 or self.t >= 30
        return self._obs(), (1.0 if self.pos == 7 else -0.01), done


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 64)
        self.action_head = nn.Linear(64, 2)
        self.value_head = nn.Linear(64, 1)

    def forward(self, x):
        x = F.relu(self.fc(x))
        return F.softmax(self.action_head(x), dim=-1), self.value_head(x)


env = Corridor()
model = Policy().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=3e-2)
running_reward = -0.3

for episode in range(40):
    state, ep_reward = env.reset(), 0.0
    log_probs, values, rewards = [], [], []
    done = False
    while not done:
        s = torch.from_numpy(state).float().unsqueeze(0).to(device)  # paef: ok pageable-transfer; ok cpu-then-move
        probs, value = model(s)
        m = Categorical(probs)
        action = m.sample()
        log_probs.append(m.log_prob(action))
        values.append(value)
        state, reward, done = env.step(action.item())
        rewards.append(reward)
        ep_reward += reward

    R, returns = 0.0, []
    for r in rewards[::-1]:
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns, device=device)
    returns = (returns - returns.mean()) / (returns.std() + eps)

    policy_losses, value_losses = [], []
    for log_prob, value, R in zip(log_probs, values, returns):  # paef: ok elementwise-loop
        advantage = R - value.item()  # paef: refuse host-sync
        policy_losses.append(-log_prob * advantage)  # paef: ok list-to-tensor
        value_losses.append(F.smooth_l1_loss(value.squeeze(), R))  # paef: expect list-to-tensor
    optimizer.zero_grad()
    loss = torch.stack(policy_losses).sum() + torch.stack(value_losses).sum()
    loss.backward()
    optimizer.step()

    running_reward = 0.05 * ep_reward + 0.95 * running_reward
    if episode % 10 == 0:
        print(f"episode {episode} last reward {ep_reward:.2f} running {running_reward:.3f}")
print(f"final running reward {running_reward:.3f}")
