"""An off-policy agent whose update samples a replay memory, trains twin critics and returns the
losses as Python numbers for the logger (the SAC layout)."""
import numpy as np
import torch
import torch.nn.functional as F


class ReplayMemory:
    def __init__(self, capacity, seed=0):
        self.capacity, self.buffer, self.position = capacity, [], 0
        self.rng = np.random.default_rng(seed)

    def push(self, state, action, reward, next_state, mask):
        if len(self.buffer) < self.capacity:
            self.buffer.append(None)
        self.buffer[self.position] = (state, action, reward, next_state, mask)
        self.position = (self.position + 1) % self.capacity

    def sample(self, batch_size):
        idx = self.rng.choice(len(self.buffer), batch_size, replace=False)
        batch = [self.buffer[i] for i in idx]  # paef: ok record-buffer
        return map(np.stack, zip(*batch))

    def __len__(self):
        return len(self.buffer)


class Agent:
    def __init__(self, obs_dim, act_dim, cuda, gamma=0.9):
        self.device = torch.device("cuda" if cuda else "cpu")
        self.gamma = gamma
        self.critic = torch.nn.Linear(obs_dim + act_dim, 2).to(self.device)
        self.target = torch.nn.Linear(obs_dim + act_dim, 2).to(self.device)
        self.target.load_state_dict(self.critic.state_dict())
        self.optim = torch.optim.Adam(self.critic.parameters(), lr=1e-2)

    def update_parameters(self, memory, batch_size):
        state, action, reward, next_state, mask = memory.sample(batch_size)
        state = torch.as_tensor(state, dtype=torch.float32, device=self.device)
        action = torch.as_tensor(action, dtype=torch.float32, device=self.device)
        reward = torch.as_tensor(reward, dtype=torch.float32, device=self.device).unsqueeze(1)
        next_state = torch.as_tensor(next_state, dtype=torch.float32, device=self.device)
        mask = torch.as_tensor(mask, dtype=torch.float32, device=self.device).unsqueeze(1)
        with torch.no_grad():
            target_q = self.target(torch.cat([next_state, action], 1)).min(1, keepdim=True)[0]
            next_q = reward + mask * self.gamma * target_q
        q = self.critic(torch.cat([state, action], 1))
        qf1_loss = F.mse_loss(q[:, :1], next_q)
        qf2_loss = F.mse_loss(q[:, 1:], next_q)
        self.optim.zero_grad()
        (qf1_loss + qf2_loss).backward()
        self.optim.step()
        return qf1_loss.item(), qf2_loss.item()  # paef: expect host-sync
