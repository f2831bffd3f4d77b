# corpus: runnable
"""DQN on the grid environment: deque replay memory, target network, Huber loss."""
import random

import torch
import torch.nn.functional as F

from agent import QNet, select_action
from buffer import ReplayMemory
from env import GridEnv

torch.manual_seed(0)
rng = random.Random(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
env = GridEnv()
policy, target = QNet(4, 4).to(device), QNet(4, 4).to(device)
target.load_state_dict(policy.state_dict())
optimizer = torch.optim.Adam(policy.parameters(), lr=5e-3)
memory = ReplayMemory(1000)
gamma, batch_size = 0.95, 32

state = env.reset()
returns, episode_return = [], 0.0
for t in range(250):
    eps = max(0.1, 1.0 - t / 150)
    action = select_action(policy, state, eps, 4, rng, device)
    next_state, reward, done, _ = env.step(action.item())
    memory.push(state, action.item(), reward, next_state, done)
    episode_return += reward
    state = env.reset() if done else next_state
    if done:
        returns.append(episode_return)
        episode_return = 0.0
    if len(memory) < batch_size:
        continue
    s, a, r, s2, d = memory.sample(batch_size, device)
    q = policy(s).gather(1, a.unsqueeze(1)).squeeze(1)
    with torch.no_grad():
        y = r + gamma * (1 - d) * target(s2).max(1).values
    loss = F.smooth_l1_loss(q, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if t % 40 == 0:
        target.load_state_dict(policy.state_dict())
print(f"episodes {len(returns)} mean return {sum(returns) / max(len(returns), 1):.4f}")
print(f"policy checksum {sum(p.sum() for p in policy.parameters()).item():.4f}")
