# corpus: runnable
"""PPO (clip) on a gym-like stub environment: rollout with env.step(action.item()), GAE in Python, minibatch epochs."""
import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Categorical

np.random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class LineWorld:
    """Walk left/right on a line; reward for reaching the right end."""

    def __init__(self, size=6, seed=0):
        self.size, self.rng = size, np.random.RandomState(seed)

    def reset(self):
        self.pos, self.t = self.rng.randint(0, self.size), 0
        return self._obs()

    def _obs(self):
        o = np.zeros(self.size, dtype=np.float32)
        o[self.pos] = 1.0
        return o

    def step(self, action):
        self.pos = int(np.clip(self.pos + (1 if action == 1 else -1), 0, self.size - 1))
        self.t += 1
        done = self.pos == self.size - 1 or self.t >= 20
        return self._obs(), float(self.pos == self.size - 1), done, {}


class ActorCritic(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, 32), nn.Tanh())
        self.pi = nn.Linear(32, n_actions)
        self.v = nn.Linear(32, 1)

    def forward(self, x):
        h = self.body(x)
        return self.pi(h), self.v(h).squeeze(-1)


env = LineWorld()
agent = ActorCritic(6, 2).to(device)
optimizer = torch.optim.Adam(agent.parameters(), lr=1e-2)
T, gamma, lam, clip = 64, 0.99, 0.95, 0.2

obs = env.reset()
for update in range(4):
    obs_buf, act_buf, logp_buf, val_buf, rew_buf, done_buf = [], [], [], [], [], []
    for t in range(T):
        obs_t = torch.as_tensor(obs, device=device).unsqueeze(0)
        with torch.no_grad():
            logits, value = agent(obs_t)
        dist = Categorical(logits=logits)
        action = dist.sample()
        next_obs, reward, done, _ = env.step(action.item())  # paef: ok host-sync
        obs_buf.append(obs_t)
        act_buf.append(action)
        logp_buf.append(dist.log_prob(action))
        val_buf.append(value)
        rew_buf.append(reward)
        done_buf.append(done)
        obs = env.reset() if done else next_obs
    with torch.no_grad():
        _, last_value = agent(torch.as_tensor(obs, device=device).unsqueeze(0))
    values = torch.cat(val_buf + [last_value])  # paef: ok list-to-tensor
    rewards = torch.tensor(rew_buf, device=device)
    dones = torch.tensor(done_buf, dtype=torch.float32, device=device)
    adv = torch.zeros(T, device=device)
    gae = 0.0
    for t in reversed(range(T)):  # paef: ok elementwise-loop
        delta = rewards[t] + gamma * values[t + 1] * (1 - dones[t]) - values[t]
        gae = delta + gamma * lam * (1 - dones[t]) * gae
        adv[t] = gae
    returns = adv + values[:-1]
    b_obs, b_act, b_logp = torch.cat(obs_buf), torch.cat(act_buf), torch.cat(logp_buf)  # paef: ok list-to-tensor
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    for _ in range(3):
        for idx in torch.randperm(T).split(16):
            logits, v = agent(b_obs[idx])
            dist = Categorical(logits=logits)
            ratio = (dist.log_prob(b_act[idx]) - b_logp[idx]).exp()
            pg = -torch.min(ratio * adv[idx], ratio.clamp(1 - clip, 1 + clip) * adv[idx]).mean()
            loss = pg + 0.5 * (returns[idx] - v).pow(2).mean() - 0.01 * dist.entropy().mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    print(f"update {update} return {sum(rew_buf):.1f} loss {loss.item():.4f}")
