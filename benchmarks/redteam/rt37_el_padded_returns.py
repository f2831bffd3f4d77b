# corpus: runnable
# Red team 37 (blind): REINFORCE-style returns for a short episode. The returns buffer has one extra
# slot for the bootstrap value (returns[T] = V(s_T)), the shaped rewards fill only the first T slots,
# and the last step index of the loop is logged after it (as many public RL scripts do).
import torch
import torch.nn as nn

torch.manual_seed(11)
torch.set_num_threads(1)

T = 7
policy = nn.Linear(4, 2)
value = nn.Linear(4, 1)
opt = torch.optim.SGD(list(policy.parameters()) + list(value.parameters()), lr=0.05)
states = torch.randn(T + 1, 4)
actions = torch.randint(0, 2, (T,))


def shaped(rewards, bootstrap):
    returns = torch.zeros(len(rewards) + 1)
    returns[-1] = bootstrap
    for t in range(len(rewards)):
        returns[t] = rewards[t] * 0.5 + 0.1
    return returns


def clipped(adv, n_valid):
    out = torch.zeros(adv.shape[0])
    for i in range(n_valid):
        out[i] = adv[i].clamp(-1.0, 1.0) * 2.0
    return out


for episode in range(4):
    rewards = torch.randn(T)
    with torch.no_grad():
        boot = value(states[-1]).squeeze()
    ret = shaped(rewards, boot)
    adv = ret[:-1] - value(states[:-1]).squeeze(-1).detach()
    adv = clipped(adv, T - 2)
    logp = torch.log_softmax(policy(states[:-1]), -1).gather(1, actions[:, None]).squeeze(1)
    loss = -(logp * adv).mean() + (value(states[:-1]).squeeze(-1) - ret[:-1]).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"episode {episode} loss {loss.item():.10f} ret {ret.tolist()} adv_tail {adv[-3:].tolist()}")

scores = torch.randn(6)
scaled = torch.zeros_like(scores)
for k in range(len(scores)):
    scaled[k] = scores[k] * 3.0 - 1.0
print("last index", k, "scaled", [round(v, 8) for v in scaled.tolist()])
