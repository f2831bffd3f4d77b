# corpus: runnable
import torch
torch.manual_seed(0)
policy = torch.nn.Sequential(torch.nn.Linear(4, 16), torch.nn.Tanh(), torch.nn.Linear(16, 2))
opt = torch.optim.Adam(policy.parameters(), lr=1e-2)
def rollout(T=5):
    log_probs, rewards = [], []
    state = torch.randn(4)
    for t in range(T):
        logits = policy(state)
        dist = torch.distributions.Categorical(logits=logits)
        a = dist.sample()
        log_probs.append(dist.log_prob(a))
        rewards.append(float(a) - 0.5)
        state = torch.randn(4)
    return log_probs, rewards
for ep in range(3):
    log_probs, rewards = rollout()
    ret = torch.tensor(rewards).flip(0).cumsum(0).flip(0)
    loss = -(torch.stack(log_probs) * ret).sum()
    opt.zero_grad(); loss.backward(); opt.step()
    print(round(loss.item(), 5))
