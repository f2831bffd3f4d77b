# corpus: runnable
import random
import torch
torch.manual_seed(0)
random.seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
net = torch.nn.Linear(3, 1).to(device)
memory = []
obs = torch.zeros(3)
for step in range(10):
    obs.add_(torch.randn(3))
    memory.append(obs.tolist())
    if step >= 3:
        idx = random.sample(range(len(memory)), 3)
        batch = torch.tensor([memory[i] for i in idx], device=device)
        print(step, round(net(batch).sum().item(), 5))
print(memory[-1][0] == obs[0].item())
seen = []
for step in range(6):
    s = torch.randint(0, 3, (2,))
    row = s.tolist()
    if row not in seen:
        seen.append(row)
    batch = torch.tensor([seen[i] for i in range(len(seen))])
    print(batch.shape)
