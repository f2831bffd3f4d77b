# corpus: runnable
# Red team 55 (blind): a small DQN on a chain world with prioritised replay. The sum tree lives in a NumPy
# array; priorities come back from the TD errors read every step; beta is annealed and the learning rate halved
# when the running TD error stalls. Transitions are kept as one Python list per field; the environment hands
# back float64 rewards and int32 actions, as NumPy environments do.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5502)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'
rng = np.random.default_rng(552)

N_STATES, N_ACT = 8, 2


def env_step(s, a):
    s2 = min(s + 1, N_STATES - 1) if a == 1 else max(s - 1, 0)
    r = np.float64(1.0 if s2 == N_STATES - 1 else -0.01 * (1 + s2 % 3))
    return s2, r, s2 == N_STATES - 1


class SumTree:
    def __init__(self, cap):
        self.cap = cap
        self.tree = np.zeros(2 * cap)
        self.pos = 0
        self.size = 0

    def update(self, i, p):
        j = i + self.cap
        self.tree[j] = p
        j //= 2
        while j >= 1:
            self.tree[j] = self.tree[2 * j] + self.tree[2 * j + 1]
            j //= 2

    def add(self, p):
        i = self.pos
        self.update(i, p)
        self.pos = (self.pos + 1) % self.cap
        self.size = min(self.size + 1, self.cap)
        return i

    def find(self, v):
        j = 1
        while j < self.cap:
            if v <= self.tree[2 * j]:
                j = 2 * j
            else:
                v -= self.tree[2 * j]
                j = 2 * j + 1
        return j - self.cap

    def total(self):
        return self.tree[1]


def one_hot(s):
    v = [0.0] * N_STATES
    v[s] = 1.0
    return v


net = nn.Sequential(nn.Linear(N_STATES, 32), nn.ReLU(), nn.Linear(32, N_ACT)).to(device)
target = nn.Sequential(nn.Linear(N_STATES, 32), nn.ReLU(), nn.Linear(32, N_ACT)).to(device)
target.load_state_dict(net.state_dict())
opt = torch.optim.SGD(net.parameters(), lr=0.1)
CAP = 64
tree = SumTree(CAP)
states, actions, rewards, nexts, dones = [], [], [], [], []
max_p = 1.0
beta = 0.4
gamma = 0.9
s = 0
td_hist = []
running_td = None
last_improve = 0
steps = 0
episode_lens = []
ep_len = 0
for step in range(300):
    eps = max(0.05, 1.0 - step / 150)
    if rng.random() < eps:
        a = np.int32(rng.integers(0, N_ACT))
    else:
        with torch.no_grad():
            q = net(torch.tensor([one_hot(s)], device=device))
        a = np.int32(q.argmax(1).item())
    s2, r, done = env_step(s, int(a))
    ep_len += 1
    i = tree.add(max_p)
    rec = (one_hot(s), torch.from_numpy(np.array([a])).tolist(), torch.from_numpy(np.array([r])).tolist(),
           one_hot(s2), float(done))
    if len(states) < CAP:
        states.append(rec[0]); actions.append(rec[1]); rewards.append(rec[2]); nexts.append(rec[3]); dones.append(rec[4])
    else:
        states[i], actions[i], rewards[i], nexts[i], dones[i] = rec
    s = 0 if done else s2
    if done:
        episode_lens.append(ep_len)
        ep_len = 0
    if tree.size < 16:
        continue
    seg = tree.total() / 8
    idx = [tree.find(rng.uniform(seg * k, seg * (k + 1))) for k in range(8)]
    probs = np.array([tree.tree[j + CAP] for j in idx]) / tree.total()
    w = (tree.size * probs) ** (-beta)
    w = torch.tensor(w / w.max(), device=device)
    bs = torch.tensor([states[j] for j in idx], device=device)
    ba = torch.tensor([actions[j] for j in idx], device=device)
    br = torch.tensor([rewards[j] for j in idx], device=device)
    bn = torch.tensor([nexts[j] for j in idx], device=device)
    bd = torch.tensor([dones[j] for j in idx], device=device)
    q = net(bs).gather(1, ba).squeeze(1)
    with torch.no_grad():
        tgt = br.squeeze(1) + gamma * (1 - bd) * target(bn).max(1).values
    td = q - tgt
    loss = (w * td.pow(2)).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    steps += 1
    new_p = td.detach().abs().cpu().numpy() + 1e-3
    for j, p in zip(idx, new_p):
        tree.update(j, float(p) ** 0.6)
        max_p = max(max_p, float(p) ** 0.6)
    td_mean = td.detach().abs().mean().item()
    td_hist.append(td_mean)
    running_td = td_mean if running_td is None else 0.9 * running_td + 0.1 * td_mean
    if running_td < 0.05 and steps - last_improve > 40:
        for g in opt.param_groups:
            g['lr'] *= 0.5
        last_improve = steps
    beta = min(1.0, beta + 0.002)
    if steps % 25 == 0:
        target.load_state_dict(net.state_dict())

with torch.no_grad():
    qs = net(torch.eye(N_STATES, device=device))
greedy = qs.argmax(1).tolist()
print('episodes', len(episode_lens), episode_lens[:8])
print('td', [round(v, 5) for v in td_hist[:5]], round(sum(td_hist), 5))
print('greedy', greedy, 'lr', opt.param_groups[0]['lr'], 'beta', round(beta, 4))
print('tree total', round(float(tree.total()), 6), 'max_p', round(max_p, 6))
print('checksum', round(qs.double().sum().item() + sum(td_hist) + float(tree.total()), 6))
