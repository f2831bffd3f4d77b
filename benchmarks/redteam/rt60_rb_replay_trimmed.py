# corpus: runnable
# Red team 60 (blind): a small DQN-style script written the way a notebook user turns it into a script: the
# buffer is a list of records that a later section trims (`buf = buf[-cap:]`) and then turns into a deque;
# columns kept as lists of `.tolist()` rows; an `if __name__ == "__main__":` block at the end.
import random
from collections import deque

import torch
import torch.nn as nn
import torch.nn.functional as F

random.seed(6009)
torch.manual_seed(6009)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'
S, A = 4, 2


def env_step(s, a):
    nxt = s + 0.1 * (a * 2 - 1) + 0.05 * torch.randn(S, device=s.device)
    r = float(-nxt.abs().sum())
    return nxt, r


qnet = nn.Sequential(nn.Linear(S, 32), nn.ReLU(), nn.Linear(32, A)).to(device)
opt = torch.optim.Adam(qnet.parameters(), lr=1e-3)
buf = []
states, actions, rewards, nexts = [], [], [], []


def learn(batch_idx):
    s = torch.tensor([states[i] for i in batch_idx], device=device)
    a = torch.tensor([actions[i] for i in batch_idx], device=device)
    r = torch.tensor([rewards[i] for i in batch_idx], device=device)
    s2 = torch.tensor([nexts[i] for i in batch_idx], device=device)
    q = qnet(s).gather(1, a[:, None]).squeeze(1)
    with torch.no_grad():
        target = r + 0.9 * qnet(s2).max(1).values
    loss = F.smooth_l1_loss(q, target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


def run(episodes, eps):
    global buf
    losses = []
    for ep in range(episodes):
        s = torch.randn(S, device=device)
        for t in range(20):
            if random.random() < eps:
                a = random.randrange(A)
            else:
                with torch.no_grad():
                    a = int(qnet(s).argmax())
            s2, r = env_step(s, a)
            buf.append((s.tolist(), a, r, s2.tolist()))
            states.append(s.tolist())
            actions.append(a)
            rewards.append(r)
            nexts.append(s2.tolist())
            s = s2
            if len(states) >= 64:
                losses.append(learn(random.sample(range(len(states)), 32)))
        if len(buf) > 300:
            buf = buf[-300:]
    return losses


def replay_from_buf(k):
    batch = random.sample(list(buf), k)
    s, a, r, s2 = zip(*batch)
    s = torch.tensor(s, device=device)
    a = torch.tensor(a, device=device)
    r = torch.tensor(r, device=device, dtype=torch.float32)
    s2 = torch.tensor(s2, device=device)
    q = qnet(s).gather(1, a[:, None]).squeeze(1)
    with torch.no_grad():
        target = r + 0.9 * qnet(s2).max(1).values
    loss = F.mse_loss(q, target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


if __name__ == "__main__":
    l1 = run(15, 0.5)
    buf = deque(buf, maxlen=200)
    l2 = [replay_from_buf(32) for _ in range(20)]
    buf.append(buf[0])
    l3 = run(5, 0.1)
    print('losses', round(sum(l1), 5), round(sum(l2), 5), round(sum(l3), 5), len(buf), type(buf).__name__)
    print('checksum', round(sum(l1) + sum(l2) + sum(l3) + sum(rewards), 5))
