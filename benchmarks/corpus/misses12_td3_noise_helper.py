# corpus: runnable
"""TD3 in the style of the older public implementations: a NumPy replay buffer, `Variable`
wrappers moved with `.cuda()` through small helpers, and the target-policy smoothing noise drawn
with NumPy on every update, then converted and moved through a helper. Near-misses: the
exploration noise added on the host to the action sent to the environment, a batch from the
replay buffer moved through the same helper (data the step needs), a helper called once."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Variable

torch.manual_seed(0)
np.random.seed(0)
torch.set_num_threads(1)
use_cuda = torch.cuda.is_available()
device = torch.device("cuda" if use_cuda else "cpu")
STATE_DIM, ACTION_DIM, MAX_ACTION = 4, 2, 1.0


def to_var(x, requires_grad=False):
    v = Variable(torch.FloatTensor(x), requires_grad=requires_grad)
    return v.cuda() if use_cuda else v


def to_tensor(x):
    return torch.from_numpy(np.asarray(x, dtype=np.float32)).to(device)


class Actor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(STATE_DIM, 32), nn.ReLU(), nn.Linear(32, ACTION_DIM), nn.Tanh())

    def forward(self, s):
        return MAX_ACTION * self.net(s)


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.q1 = nn.Sequential(nn.Linear(STATE_DIM + ACTION_DIM, 32), nn.ReLU(), nn.Linear(32, 1))
        self.q2 = nn.Sequential(nn.Linear(STATE_DIM + ACTION_DIM, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, s, a):
        sa = torch.cat([s, a], 1)
        return self.q1(sa), self.q2(sa)


class ReplayBuffer:
    def __init__(self, size=1000):
        self.s = np.zeros((size, STATE_DIM), np.float32)
        self.a = np.zeros((size, ACTION_DIM), np.float32)
        self.r = np.zeros((size, 1), np.float32)
        self.s2 = np.zeros((size, STATE_DIM), np.float32)
        self.ptr, self.n, self.size = 0, 0, size

    def add(self, s, a, r, s2):
        self.s[self.ptr], self.a[self.ptr], self.r[self.ptr], self.s2[self.ptr] = s, a, r, s2
        self.ptr = (self.ptr + 1) % self.size
        self.n = min(self.n + 1, self.size)

    def sample(self, batch_size):
        idx = np.random.randint(0, self.n, size=batch_size)
        return self.s[idx], self.a[idx], self.r[idx], self.s2[idx]


def env_step(s, a):
    s2 = np.clip(s + 0.1 * np.concatenate([a, a]), -1, 1)
    return s2, -float(np.square(s2).sum())


actor, actor_target = Actor().to(device), Actor().to(device)
critic, critic_target = Critic().to(device), Critic().to(device)
actor_target.load_state_dict(actor.state_dict())
critic_target.load_state_dict(critic.state_dict())
actor_opt = torch.optim.Adam(actor.parameters(), lr=1e-3)
critic_opt = torch.optim.Adam(critic.parameters(), lr=1e-3)
buffer = ReplayBuffer()
batch_size, policy_noise, noise_clip, gamma, tau = 32, 0.2, 0.5, 0.99, 0.005
start_noise = to_var(np.random.normal(0, 0.1, size=(1, ACTION_DIM)))  # paef: ok cpu-then-move

s = np.random.uniform(-1, 1, STATE_DIM).astype(np.float32)
for t in range(300):
    with torch.no_grad():
        a = actor(to_tensor(s[None])).cpu().numpy()[0]  # paef: ok pageable-transfer; ok cpu-then-move; ok host-sync
    a = (a + np.random.normal(0, 0.1, size=ACTION_DIM)).clip(-MAX_ACTION, MAX_ACTION)
    s2, r = env_step(s, a)
    buffer.add(s, a, r, s2)
    s = s2 if t % 50 else np.random.uniform(-1, 1, STATE_DIM).astype(np.float32)
    if buffer.n < batch_size:
        continue

    bs, ba, br, bs2 = buffer.sample(batch_size)
    state, action, reward, next_state = to_var(bs), to_var(ba), to_var(br), to_var(bs2)  # paef: ok cpu-then-move; ok pageable-transfer
    noise = np.random.normal(0, policy_noise, size=(batch_size, ACTION_DIM)).clip(-noise_clip, noise_clip)
    noise = to_var(noise)  # paef: expect cpu-then-move
    with torch.no_grad():
        next_action = (actor_target(next_state) + noise).clamp(-MAX_ACTION, MAX_ACTION)
        tq1, tq2 = critic_target(next_state, next_action)
        target_q = reward + gamma * torch.min(tq1, tq2)
    q1, q2 = critic(state, action)
    critic_loss = F.mse_loss(q1, target_q) + F.mse_loss(q2, target_q)
    critic_opt.zero_grad()
    critic_loss.backward()
    critic_opt.step()

    if t % 2 == 0:
        eps = to_tensor(np.random.normal(0, 0.01, size=(batch_size, ACTION_DIM)))  # paef: expect cpu-then-move
        actor_loss = -critic(state, actor(state) + eps)[0].mean()
        actor_opt.zero_grad()
        actor_loss.backward()
        actor_opt.step()
        with torch.no_grad():
            for p, tp in zip(actor.parameters(), actor_target.parameters()):
                tp.mul_(1 - tau).add_(tau * p)
            for p, tp in zip(critic.parameters(), critic_target.parameters()):
                tp.mul_(1 - tau).add_(tau * p)

print(f"critic loss {critic_loss.item():.4f} actor loss {actor_loss.item():.4f} start noise {start_noise.sum().item():.4f}")
