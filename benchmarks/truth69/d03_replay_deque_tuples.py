"""A small DQN-style learner on a synthetic environment: every step pushes one transition
(a tuple of the state as a Python list, action, reward, next state, done) into a `deque`, and
every step samples a batch of 256 transitions from it and builds each field's tensor."""
import random
from collections import deque

import torch
import torch.nn as nn
import torch.nn.functional as F

random.seed(0)
torch.manual_seed(0)
S, A = 64, 4
W = torch.randn(S, S) * 0.3
qnet = nn.Sequential(nn.Linear(S, 64), nn.ReLU(), nn.Linear(64, A))
opt = torch.optim.Adam(qnet.parameters(), lr=1e-3)
replay = deque(maxlen=5000)
state = torch.randn(S)
for step in range(300):
    action = random.randrange(A)
    next_state = torch.tanh(W @ state + 0.1 * torch.randn(S))
    reward = float(next_state[action])
    replay.append((state.tolist(), action, reward, next_state.tolist(), step % 50 == 49))
    state = next_state
    if len(replay) < 256:
        continue
    batch = random.sample(replay, 256)
    s = torch.tensor([t[0] for t in batch])
    a = torch.tensor([t[1] for t in batch])
    r = torch.tensor([t[2] for t in batch])
    s2 = torch.tensor([t[3] for t in batch])
    done = torch.tensor([t[4] for t in batch], dtype=torch.float32)
    with torch.no_grad():
        target = r + 0.9 * (1.0 - done) * qnet(s2).max(dim=1).values
    q = qnet(s).gather(1, a[:, None]).squeeze(1)
    loss = F.smooth_l1_loss(q, target)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"loss {loss.item():.4f}")
