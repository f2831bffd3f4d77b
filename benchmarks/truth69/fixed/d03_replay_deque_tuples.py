"""Twin of d03: transitions stored in preallocated tensor columns with a ring index; a batch
is one index draw and five gathers."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

random.seed(0)
torch.manual_seed(0)
S, A, CAP = 64, 4, 5000
W = torch.randn(S, S) * 0.3
qnet = nn.Sequential(nn.Linear(S, 64), nn.ReLU(), nn.Linear(64, A))
opt = torch.optim.Adam(qnet.parameters(), lr=1e-3)
buf_s, buf_s2 = torch.zeros(CAP, S), torch.zeros(CAP, S)
buf_a, buf_r, buf_d = torch.zeros(CAP, dtype=torch.long), torch.zeros(CAP), torch.zeros(CAP)
size = 0
state = torch.randn(S)
for step in range(300):
    action = random.randrange(A)
    next_state = torch.tanh(W @ state + 0.1 * torch.randn(S))
    reward = float(next_state[action])
    k = step % CAP
    buf_s[k], buf_a[k], buf_r[k], buf_s2[k], buf_d[k] = state, action, reward, next_state, float(step % 50 == 49)
    size = min(size + 1, CAP)
    state = next_state
    if size < 256:
        continue
    idx = torch.tensor(random.sample(range(size), 256))
    s, a, r, s2, done = buf_s[idx], buf_a[idx], buf_r[idx], buf_s2[idx], buf_d[idx]
    with torch.no_grad():
        target = r + 0.9 * (1.0 - done) * qnet(s2).max(dim=1).values
    q = qnet(s).gather(1, a[:, None]).squeeze(1)
    loss = F.smooth_l1_loss(q, target)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"loss {loss.item():.4f}")
