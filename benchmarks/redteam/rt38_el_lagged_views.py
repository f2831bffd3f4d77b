# corpus: runnable
# Red team 38 (blind): discounted returns and an exponential moving average computed in place through
# views handed back by a helper (`lagged` returns the previous-step and current-step views of one
# buffer, as some RL and smoothing code does to avoid index arithmetic).
import torch
import torch.nn as nn

torch.manual_seed(29)
torch.set_num_threads(1)


def lagged(buf: torch.Tensor):
    return buf[:-1], buf[1:]


T = 9
policy = nn.Linear(3, 1)
opt = torch.optim.SGD(policy.parameters(), lr=0.05)
states = torch.randn(T, 3)

for episode in range(3):
    rewards = policy(states).squeeze(1).detach().tanh()
    smooth = torch.zeros(T)
    smooth[0] = rewards[0]
    prev, cur = lagged(smooth)
    for t in range(T - 1):
        cur[t] = prev[t] * 0.8 + rewards[t + 1] * 0.2
    scaled = torch.zeros(T - 1)
    head, tail = lagged(rewards.clone())
    for t in range(T - 1):
        scaled[t] = tail[t] - head[t] * 0.5
    loss = -(policy(states).squeeze(1) * smooth).mean() + scaled.pow(2).mean() * 0.0
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(episode, f"{loss.item():.12f}", [f"{v:.10f}" for v in smooth.tolist()], f"{scaled.sum().item():.10f}")
