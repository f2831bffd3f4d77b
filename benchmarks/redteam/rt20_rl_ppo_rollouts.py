# corpus: runnable
# PPO on a toy bandit-like environment: rollout buffers allocated per update with `torch.zeros`
# and filled per step, an episode that can end early (the rest of the buffer is left as it was),
# GAE by a backward Python loop over the rewards, advantages normalised, `Categorical` sampling,
# actions handed to the environment with `.item()`, value targets kept as Python floats.
import random

import numpy as np
import torch
from torch import nn
from torch.distributions import Categorical

torch.set_num_threads(1)
torch.manual_seed(6)
random.seed(6)
np.random.seed(6)
device = "cuda" if torch.cuda.is_available() else "cpu"
T, obs_dim, n_act, gamma, lam = 16, 4, 3, 0.99, 0.95


class Env:
    def __init__(self):
        self.rng = np.random.RandomState(0)
        self.t = 0
        self.horizon = T

    def reset(self):
        self.t = 0
        self.horizon = int(self.rng.randint(5, T + 1))
        return self.rng.randn(obs_dim).astype(np.float32)

    def step(self, a):
        self.t += 1
        r = 1.0 if a == self.t % n_act else 0.0
        done = self.t >= self.horizon
        return self.rng.randn(obs_dim).astype(np.float32), r, done


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.pi = nn.Sequential(nn.Linear(obs_dim, 32), nn.Tanh(), nn.Linear(32, n_act))
        self.v = nn.Sequential(nn.Linear(obs_dim, 32), nn.Tanh(), nn.Linear(32, 1))


env = Env()
ac = ActorCritic().to(device)
opt = torch.optim.Adam(ac.parameters(), lr=3e-3)
ep_returns = []
for update in range(4):
    obs_buf = torch.zeros((T, obs_dim), device=device)
    act_buf = torch.zeros(T, dtype=torch.long, device=device)
    logp_buf = torch.zeros(T, device=device)
    rew_buf = torch.zeros(T, device=device)
    val_buf = torch.zeros(T, device=device)
    done_buf = torch.zeros(T, device=device)
    obs = env.reset()
    ep_ret = 0.0
    steps = 0
    for t in range(T):
        o = torch.tensor(obs).to(device)
        with torch.no_grad():
            dist = Categorical(logits=ac.pi(o))
            a = dist.sample()
            v = ac.v(o).squeeze(-1)
        obs, r, done = env.step(a.item())
        obs_buf[t] = o
        act_buf[t] = a
        logp_buf[t] = dist.log_prob(a)
        rew_buf[t] = r
        val_buf[t] = v
        done_buf[t] = float(done)
        ep_ret += r
        steps += 1
        if done:
            break
    ep_returns.append(ep_ret)
    # GAE over the whole buffer (the tail of a short episode keeps what the buffer held)
    adv = torch.zeros(T, device=device)
    lastgaelam = 0.0
    for t in reversed(range(T)):
        nonterminal = 1.0 - done_buf[t]
        next_v = val_buf[t + 1] if t + 1 < T else 0.0
        delta = rew_buf[t] + gamma * next_v * nonterminal - val_buf[t]
        lastgaelam = delta + gamma * lam * nonterminal * lastgaelam
        adv[t] = lastgaelam
    ret = adv + val_buf
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    for epoch in range(2):
        dist = Categorical(logits=ac.pi(obs_buf))
        ratio = (dist.log_prob(act_buf) - logp_buf).exp()
        clip = torch.clamp(ratio, 0.8, 1.2)
        pl = -torch.min(ratio * adv, clip * adv).mean()
        vl = (ac.v(obs_buf).squeeze(-1) - ret).pow(2).mean()
        loss = pl + 0.5 * vl - 0.01 * dist.entropy().mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(update, steps, rew_buf.sum().item(), round(loss.item(), 6))
print("returns", ep_returns)

# REINFORCE with returns computed from Python floats, then a tensor of them
rewards_hist = []
for episode in range(3):
    obs = env.reset()
    log_probs, rewards = [], []
    for t in range(8):
        dist = Categorical(logits=ac.pi(torch.tensor(obs).to(device)))
        a = dist.sample()
        log_probs.append(dist.log_prob(a))
        obs, r, done = env.step(a.item())
        rewards.append(r)
        if done:
            break
    R = 0.0
    returns = []
    for r in reversed(rewards):
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns, device=device)
    returns = (returns - returns.mean()) / (returns.std() + 1e-8)
    loss = -(torch.stack(log_probs) * returns).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    rewards_hist.append(sum(rewards))
print("reinforce", rewards_hist, loss.item())

# evaluation episodes: greedy actions, an action histogram
counts = torch.zeros(n_act, dtype=torch.long)
val_total = 0.0
obs = env.reset()
for t in range(10):
    o = torch.tensor(obs).to(device)
    logits = ac.pi(o)
    a = logits.argmax()
    counts[a.item()] += 1
    val_total += ac.v(o).item()
    obs, r, done = env.step(a.item())
print("eval", counts.tolist(), repr(val_total))
