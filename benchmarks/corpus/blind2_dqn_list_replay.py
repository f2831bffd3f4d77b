# corpus: runnable
"""DQN with a Python-list replay memory of tuples, epsilon-greedy acting, a target net synced every N steps."""
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

random.seed(0)
np.random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class GridEnv:
    def __init__(self, n=5):
        self.n = n

    def reset(self):
        self.s = 0
        return np.eye(self.n, dtype=np.float32)[self.s]

    def step(self, a):
        self.s = min(self.n - 1, max(0, self.s + (1 if a == 1 else -1)))
        done = self.s == self.n - 1
        return np.eye(self.n, dtype=np.float32)[self.s], (1.0 if done else -0.05), done


class ReplayMemory:
    def __init__(self, capacity):
        self.capacity, self.memory, self.pos = capacity, [], 0

    def push(self, *transition):
        if len(self.memory) < self.capacity:
            self.memory.append(None)
        self.memory[self.pos] = transition
        self.pos = (self.pos + 1) % self.capacity

    def sample(self, batch_size):
        batch = random.sample(self.memory, batch_size)  # paef: expect record-buffer
        s, a, r, s2, d = zip(*batch)
        return (
            torch.tensor(np.array(s), device=device),  # paef: ok list-to-tensor
            torch.tensor(a, device=device),  # paef: ok list-to-tensor
            torch.tensor(r, dtype=torch.float32, device=device),  # paef: ok list-to-tensor
            torch.tensor(np.array(s2), device=device),  # paef: ok list-to-tensor
            torch.tensor(d, dtype=torch.float32, device=device),  # paef: ok list-to-tensor
        )

    def __len__(self):
        return len(self.memory)


policy = nn.Sequential(nn.Linear(5, 32), nn.ReLU(), nn.Linear(32, 2)).to(device)
target = nn.Sequential(nn.Linear(5, 32), nn.ReLU(), nn.Linear(32, 2)).to(device)
target.load_state_dict(policy.state_dict())
optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)
memory = ReplayMemory(500)
env = GridEnv()
eps, gamma, batch_size, step = 1.0, 0.9, 32, 0
losses = []

for episode in range(25):
    state, done, ret = env.reset(), False, 0.0
    for t in range(30):
        if random.random() < eps:
            action = random.randrange(2)
        else:
            with torch.no_grad():
                action = policy(torch.from_numpy(state).to(device)).argmax().item()  # paef: ok host-sync
        next_state, reward, done = env.step(action)
        memory.push(state, action, reward, next_state, float(done))
        state, ret, step = next_state, ret + reward, step + 1
        if len(memory) >= batch_size:
            s, a, r, s2, d = memory.sample(batch_size)
            q = policy(s).gather(1, a.unsqueeze(1)).squeeze(1)
            with torch.no_grad():
                q_next = target(s2).max(1)[0]
            loss = F.smooth_l1_loss(q, r + gamma * q_next * (1 - d))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            losses.append(loss.item())  # paef: expect host-sync
        if step % 20 == 0:
            target.load_state_dict(policy.state_dict())
        if done:
            break
    eps = max(0.05, eps * 0.85)
    if episode % 5 == 0:
        print(f"episode {episode} return {ret:.2f} mean loss {np.mean(losses[-20:]) if losses else 0:.4f}")
