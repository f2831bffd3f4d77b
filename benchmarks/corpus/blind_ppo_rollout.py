# corpus: runnable
"""PPO with a NumPy rollout buffer and GAE computed by a reverse loop over the rollout."""
import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Categorical

torch.manual_seed(0)
np.random.seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class LineWorld:
    """A 1-D walk: reach the right end for +1, the left end for -1."""

    def __init__(self, size=7):
        self.size = size

    def reset(self):
        self.pos = self.size // 2
        return self._obs()

    def _obs(self):
        obs = np.zeros(self.size, dtype=np.float32)
        obs[self.pos] = 1.0
        return obs

    def step(self, action):
        self.pos += 1 if action == 1 else -1
        done = self.pos in (0, self.size - 1)
        reward = 1.0 if self.pos == self.size - 1 else (-1.0 if self.pos == 0 else -0.01)
        if done:
            return self.reset(), reward, True
        return self._obs(), reward, False


class ActorCritic(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, 32), nn.Tanh())
        self.pi = nn.Linear(32, n_actions)
        self.v = nn.Linear(32, 1)

    def forward(self, x):
        h = self.body(x)
        return self.pi(h), self.v(h).squeeze(-1)


class RolloutBuffer:
    def __init__(self, n, obs_dim):
        self.obs = np.zeros((n, obs_dim), dtype=np.float32)
        self.actions = np.zeros(n, dtype=np.int64)
        self.logp = np.zeros(n, dtype=np.float32)
        self.rewards = np.zeros(n, dtype=np.float32)
        self.values = np.zeros(n, dtype=np.float32)
        self.dones = np.zeros(n, dtype=np.float32)


def compute_gae(buf, last_value, gamma=0.99, lam=0.95):
    n = len(buf.rewards)
    adv = np.zeros(n, dtype=np.float32)
    lastgaelam = 0.0
    for t in reversed(range(n)):
        next_value = last_value if t == n - 1 else buf.values[t + 1]
        nonterminal = 1.0 - buf.dones[t]
        delta = buf.rewards[t] + gamma * next_value * nonterminal - buf.values[t]
        adv[t] = lastgaelam = delta + gamma * lam * nonterminal * lastgaelam
    return adv, adv + buf.values


env = LineWorld()
agent = ActorCritic(7, 2).to(device)
optimizer = torch.optim.Adam(agent.parameters(), lr=3e-3)
n_steps, n_updates, n_epochs, minibatch = 64, 2, 3, 16
clip_coef, target_kl = 0.2, 0.05

obs = env.reset()
for update in range(n_updates):
    buf = RolloutBuffer(n_steps, 7)
    ep_returns, ep_ret = [], 0.0
    for t in range(n_steps):
        obs_t = torch.as_tensor(obs, device=device).unsqueeze(0)
        with torch.no_grad():
            logits, value = agent(obs_t)
        dist = Categorical(logits=logits)
        action = dist.sample()
        next_obs, reward, done = env.step(action.item())
        buf.obs[t] = obs
        buf.actions[t] = action.item()  # paef: ok host-sync
        buf.logp[t] = dist.log_prob(action).item()  # paef: ok host-sync
        buf.values[t] = value.item()  # paef: ok host-sync
        buf.rewards[t] = reward
        buf.dones[t] = float(done)
        ep_ret += reward
        if done:
            ep_returns.append(ep_ret)
            ep_ret = 0.0
        obs = next_obs

    with torch.no_grad():
        last_value = agent(torch.as_tensor(obs, device=device).unsqueeze(0))[1].item()
    advantages, returns = compute_gae(buf, last_value)

    b_obs = torch.as_tensor(buf.obs, device=device)
    b_actions = torch.as_tensor(buf.actions, device=device)
    b_logp = torch.as_tensor(buf.logp, device=device)
    b_adv = torch.as_tensor(advantages, device=device)
    b_ret = torch.as_tensor(returns, device=device)

    for epoch in range(n_epochs):
        perm = np.random.permutation(n_steps)
        for start in range(0, n_steps, minibatch):
            mb = torch.as_tensor(perm[start : start + minibatch], device=device)  # paef: ok cpu-then-move
            logits, v = agent(b_obs[mb])
            dist = Categorical(logits=logits)
            new_logp = dist.log_prob(b_actions[mb])
            ratio = (new_logp - b_logp[mb]).exp()
            adv = b_adv[mb]
            adv = (adv - adv.mean()) / (adv.std() + 1e-8)
            pg_loss = torch.max(-adv * ratio, -adv * ratio.clamp(1 - clip_coef, 1 + clip_coef)).mean()
            v_loss = 0.5 * (b_ret[mb] - v).pow(2).mean()
            loss = pg_loss + 0.5 * v_loss - 0.01 * dist.entropy().mean()
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
            optimizer.step()
        approx_kl = (b_logp - Categorical(logits=agent(b_obs)[0]).log_prob(b_actions)).mean().item()  # paef: ok host-sync
        if approx_kl > target_kl:
            break
    mean_ret = float(np.mean(ep_returns)) if ep_returns else 0.0
    print(f"update {update} episodes {len(ep_returns)} mean return {mean_ret:.3f} loss {loss.item():.4f}")
