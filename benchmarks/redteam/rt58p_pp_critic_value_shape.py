# corpus: runnable
# Red team 58 probe (not blind): actor-critic bookkeeping: a (1, 1)-shaped critic value snapshotted as a 0-d CPU
# tensor with torch.tensor(v.item()) and stacked, a linspace of advantages rebuilt per episode, and an episode
# return accumulated from .item() with an early break and a for-else bonus read after the loop.
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(5825)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'
actor = nn.Linear(3, 2).to(device)
critic = nn.Linear(3, 1).to(device)
opt = torch.optim.SGD(list(actor.parameters()) + list(critic.parameters()), lr=0.05)
returns, baselines = [], []
for ep in range(4):
    s = torch.randn(8, 3, device=device)
    ep_ret = 0.0
    for t in range(8):
        logits = actor(s[t:t + 1])
        r = logits.softmax(-1)[0, 0] - 0.5
        ep_ret += r.item()
        if ep_ret > 3.0:
            break
    else:
        ep_ret = ep_ret * 1.5
    returns.append(ep_ret)
    v = critic(s[:1])
    base = torch.tensor(v.item())
    baselines.append(base)
    g = torch.linspace(0, 1, 8, device=device)
    adv = g - base.to(device)
    loss = (adv ** 2).mean() + F.mse_loss(v.squeeze(), torch.tensor(ep_ret, device=device))
    opt.zero_grad()
    loss.backward()
    opt.step()
print("checksum", [round(x, 5) for x in returns], torch.stack(baselines).shape, round(torch.stack(baselines).sum().item(), 5))
