# corpus: runnable
# Red team 39, wave 2 (blind): a DQN-style replay buffer of Python rows (`state.tolist()`), where the
# terminal transition's stored next-state row is zeroed in place afterwards (`buffer["next"][-1][:] = ...`)
# and every row gets a step counter appended, then minibatches are rebuilt with `torch.tensor`.
import random

import torch
import torch.nn as nn

torch.manual_seed(32)
torch.set_num_threads(1)
random.seed(32)
device = "cuda" if torch.cuda.is_available() else "cpu"

policy = nn.Linear(3, 2).to(device)
opt = torch.optim.SGD(policy.parameters(), lr=0.05)
buffer = {"state": [], "next": [], "reward": []}
state = torch.randn(3, device=device)
for t in range(24):
    nxt = torch.tanh(state + 0.3 * torch.randn(3, device=device))
    buffer["state"].append(state.tolist())
    buffer["next"].append(nxt.tolist())
    buffer["reward"].append(float(nxt.sum()))
    if t % 6 == 5:
        buffer["next"][-1][:] = [0.0, 0.0, 0.0]
    buffer["state"][-1].append(t / 24)
    state = nxt
    if len(buffer["state"]) >= 8:
        idx = random.sample(range(len(buffer["state"])), 4)
        s = torch.tensor([buffer["state"][i][:3] for i in idx], device=device)
        s2 = torch.tensor([buffer["next"][i] for i in idx], device=device)
        r = torch.tensor([buffer["reward"][i] for i in idx], device=device)
        target = r + 0.9 * policy(s2).max(1).values.detach()
        loss = (policy(s).max(1).values - target).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(t, idx, f"{loss.item():.12f}")
print(buffer["state"][3], buffer["next"][5])
