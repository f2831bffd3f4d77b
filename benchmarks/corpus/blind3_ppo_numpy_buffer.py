# corpus: runnable
"""PPO in the CleanRL spirit on a vectorised NumPy stub environment: preallocated rollout
storage on the device, GAE computed backwards over the rollout, minibatch updates over
several epochs, approximate KL logged per update."""
import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Categorical

np.random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
num_envs, num_steps, obs_dim, n_actions = 4, 32, 6, 3
gamma, gae_lambda, clip_coef, update_epochs, minibatch = 0.99, 0.95, 0.2, 3, 32


class VecEnv:
    def __init__(self, n):
        self.n, self.rng = n, np.random.RandomState(0)
        self.target = self.rng.randint(0, n_actions, n)

    def reset(self):
        return self.rng.randn(self.n, obs_dim).astype(np.float32)

    def step(self, actions):
        reward = (actions == self.target).astype(np.float32)
        done = self.rng.rand(self.n) < 0.05
        self.target = np.where(done, self.rng.randint(0, n_actions, self.n), self.target)
        obs = self.rng.randn(self.n, obs_dim).astype(np.float32)
        obs[np.arange(self.n), self.target] += 2.0
        return obs, reward, done


class Agent(nn.Module):
    def __init__(self):
        super().__init__()
        self.critic = nn.Sequential(nn.Linear(obs_dim, 32), nn.Tanh(), nn.Linear(32, 1))
        self.actor = nn.Sequential(nn.Linear(obs_dim, 32), nn.Tanh(), nn.Linear(32, n_actions))

    def get_value(self, x):
        return self.critic(x)

    def get_action_and_value(self, x, action=None):
        dist = Categorical(logits=self.actor(x))
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.critic(x)


envs = VecEnv(num_envs)
agent = Agent().to(device)
optimizer = torch.optim.Adam(agent.parameters(), lr=2.5e-3, eps=1e-5)
obs = torch.zeros((num_steps, num_envs, obs_dim)).to(device)  # paef: ok cpu-then-move
actions = torch.zeros((num_steps, num_envs)).to(device)  # paef: ok cpu-then-move
logprobs = torch.zeros((num_steps, num_envs), device=device)
rewards = torch.zeros((num_steps, num_envs), device=device)
dones = torch.zeros((num_steps, num_envs), device=device)
values = torch.zeros((num_steps, num_envs), device=device)

next_obs = torch.Tensor(envs.reset()).to(device)
next_done = torch.zeros(num_envs, device=device)
for update in range(6):
    for step in range(num_steps):
        obs[step] = next_obs
        dones[step] = next_done
        with torch.no_grad():
            action, logprob, _, value = agent.get_action_and_value(next_obs)
            values[step] = value.flatten()
        actions[step] = action
        logprobs[step] = logprob
        o, r, d = envs.step(action.cpu().numpy())
        rewards[step] = torch.tensor(r).to(device).view(-1)  # paef: ok cpu-then-move; ok pageable-transfer
        next_obs, next_done = torch.Tensor(o).to(device), torch.Tensor(d.astype(np.float32)).to(device)  # paef: ok cpu-then-move; ok pageable-transfer

    with torch.no_grad():
        next_value = agent.get_value(next_obs).reshape(1, -1)
        advantages = torch.zeros_like(rewards)
        lastgaelam = 0
        for t in reversed(range(num_steps)):  # paef: refuse elementwise-loop
            nextnonterminal = 1.0 - (next_done if t == num_steps - 1 else dones[t + 1])
            nextvalues = next_value if t == num_steps - 1 else values[t + 1]
            delta = rewards[t] + gamma * nextvalues * nextnonterminal - values[t]
            advantages[t] = lastgaelam = delta + gamma * gae_lambda * nextnonterminal * lastgaelam
        returns = advantages + values

    b_obs, b_actions = obs.reshape(-1, obs_dim), actions.reshape(-1)
    b_logprobs, b_adv, b_returns = logprobs.reshape(-1), advantages.reshape(-1), returns.reshape(-1)
    b_inds = np.arange(num_steps * num_envs)
    for epoch in range(update_epochs):
        np.random.shuffle(b_inds)
        for start in range(0, len(b_inds), minibatch):
            mb = b_inds[start:start + minibatch]
            _, newlogprob, entropy, newvalue = agent.get_action_and_value(b_obs[mb], b_actions[mb].long())  # paef: ok pageable-transfer
            logratio = newlogprob - b_logprobs[mb]
            ratio = logratio.exp()
            with torch.no_grad():
                approx_kl = ((ratio - 1) - logratio).mean()
            adv = (b_adv[mb] - b_adv[mb].mean()) / (b_adv[mb].std() + 1e-8)
            pg_loss = torch.max(-adv * ratio, -adv * torch.clamp(ratio, 1 - clip_coef, 1 + clip_coef)).mean()
            v_loss = 0.5 * ((newvalue.view(-1) - b_returns[mb]) ** 2).mean()
            loss = pg_loss - 0.01 * entropy.mean() + 0.5 * v_loss
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
            optimizer.step()
    print(f"update {update} mean reward {rewards.mean().item():.3f} approx_kl {approx_kl.item():.4f}")
