# corpus: runnable
import torch
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
policy = torch.nn.Sequential(torch.nn.Linear(4, 16), torch.nn.Tanh(), torch.nn.Linear(16, 2)).to(device)
opt = torch.optim.Adam(policy.parameters(), lr=1e-2)
for ep in range(3):
    log_probs, rewards = [], []
    states = [torch.randn(4) for _ in range(5)]
    for state in states:
        logits = policy(state.to(device))
        probs = torch.softmax(logits, -1)
        a = int(torch.multinomial(probs, 1))
        log_probs.append(torch.log(probs[a]))
        rewards.append(a - 0.5)
    loss = -(torch.stack(log_probs) * torch.tensor(rewards, device=device)).sum()
    opt.zero_grad(); loss.backward(); opt.step()
    print(round(loss.item(), 5))
