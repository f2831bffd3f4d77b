# corpus: runnable
# Red team 58 (blind): a small DDPG-style actor-critic on a made-up continuous control task (reach a goal on a
# line with a drag term). Critic and actor have separate optimizers; target copies of both are made with
# copy.deepcopy and moved toward the online nets with a Polyak update under no_grad. For the actor step the
# critic is put in eval mode and its parameters frozen (requires_grad_(False)) so that only the actor moves,
# but the actor's gradient still flows THROUGH the critic. The target nets are evaluated in eval mode for the
# TD target. Episode returns and losses are read on the host for logging.
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5801)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'


class Actor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 32), nn.Tanh(), nn.Linear(32, 1), nn.Tanh())

    def forward(self, s):
        return self.net(s)


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Dropout(0.1), nn.Linear(32, 1))

    def forward(self, s, a):
        return self.net(torch.cat([s, a], dim=-1)).squeeze(-1)


def env_step(s, a):
    pos, vel = s[:, 0], s[:, 1]
    vel = 0.9 * vel + 0.1 * a.squeeze(-1)
    pos = (pos + vel).clamp(-2.0, 2.0)
    r = -(pos - 1.0).abs() - 0.05 * a.squeeze(-1) ** 2
    return torch.stack([pos, vel], dim=-1), r


actor, critic = Actor().to(device), Critic().to(device)
actor_t, critic_t = copy.deepcopy(actor), copy.deepcopy(critic)
opt_a = torch.optim.Adam(actor.parameters(), lr=1e-3)
opt_c = torch.optim.Adam(critic.parameters(), lr=2e-3)
gamma, tau = 0.9, 0.95
gen = torch.Generator().manual_seed(58)


def polyak(target, online):
    with torch.no_grad():
        for pt, po in zip(target.parameters(), online.parameters()):
            pt.mul_(tau).add_(po, alpha=1 - tau)


def actor_objective(states):
    critic.eval()
    for p in critic.parameters():
        p.requires_grad_(False)
    q = critic(states, actor(states))
    for p in critic.parameters():
        p.requires_grad_(True)
    critic.train()
    return -q.mean()


returns, c_losses, a_losses = [], [], []
for episode in range(12):
    s = (torch.rand(64, 2, generator=gen) * 2 - 1).to(device)
    ep_ret = 0.0
    for t in range(10):
        with torch.no_grad():
            noise = (0.2 * torch.randn(64, 1, generator=gen)).to(device)
            a = (actor(s) + noise).clamp(-1, 1)
        s2, r = env_step(s, a)
        ep_ret += r.mean().item()

        actor_t.eval()
        critic_t.eval()
        q_next = critic_t(s2, actor_t(s2))
        y = r + gamma * q_next
        q = critic(s, a)
        c_loss = F.mse_loss(q, y.detach())
        opt_c.zero_grad()
        c_loss.backward()
        opt_c.step()

        a_loss = actor_objective(s)
        opt_a.zero_grad()
        a_loss.backward()
        opt_a.step()
        polyak(actor_t, actor)
        polyak(critic_t, critic)
        c_losses.append(c_loss.item())
        a_losses.append(a_loss.item())
        s = s2
    returns.append(ep_ret)

print('returns', [round(x, 3) for x in returns[-4:]])
print('critic loss', round(sum(c_losses[-10:]) / 10, 5), 'actor loss', round(sum(a_losses[-10:]) / 10, 5))
with torch.no_grad():
    probe = torch.tensor([[0.0, 0.0], [0.5, 0.1], [1.0, 0.0]], device=device)
    print('policy', [round(v, 4) for v in actor(probe).squeeze(-1).tolist()])
    print('checksum', round(sum(p.sum().item() for p in actor.parameters()), 5),
          round(sum(p.sum().item() for p in critic_t.parameters()), 5))
