# corpus: runnable
# Red team 54 (blind): a bandit-style data curriculum. Each round an arm is drawn with torch.multinomial on a
# CPU generator, a mini-batch order comes from randperm on a generator re-seeded per round (the same order
# every round, on purpose), a NumPy table of arm rewards is updated in place and read as a tensor every round
# (torch.as_tensor shares a CPU array's memory but copies to a device), and a few constant tensors are built
# inside the loop, one of them then edited in place.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5405)
torch.set_num_threads(1)
np.random.seed(545)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

g = torch.Generator().manual_seed(545)
K = 3
pools = [torch.randn(40, 4, generator=g) * (1 + k) for k in range(K)]
w_true = torch.tensor([1.0, -2.0, 0.5, 0.0])
reward = np.ones(K, dtype=np.float32)
pulls = np.zeros(K, dtype=np.int64)
model = nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.02)
trace = []
for rnd in range(15):
    prior = torch.tensor([1.0, 1.0, 1.0])
    rew = torch.as_tensor(reward, device=device)
    probs = (prior.to(device) + rew).cpu()
    arm = int(torch.multinomial(probs / probs.sum(), 1, generator=g))
    order = torch.randperm(40, generator=torch.Generator().manual_seed(7))[:16]
    xb = pools[arm][order].to(device)
    yb = xb @ w_true.to(device)
    scale = torch.ones(4, device=device)
    scale[arm] = 0.5
    pred = model(xb * scale).squeeze(1)
    loss = F.mse_loss(pred, yb)
    opt.zero_grad()
    loss.backward()
    opt.step()
    pulls[arm] += 1
    reward[arm] = 0.9 * reward[arm] + 0.1 / (1.0 + loss.item())
    pick = torch.tensor([0, 2], device=device)
    trace.append((arm, round(loss.item(), 6), rew[pick].sum().item()))
    if rnd % 5 == 0:
        print('round', rnd, arm, f'{loss.item():.8f}', [round(float(r), 6) for r in reward])

drops = []
for rep in range(4):
    keep = torch.bernoulli(torch.full((4,), 0.7), generator=g)
    noise = torch.tensor(np.random.rand(4).astype(np.float32))
    drops.append((keep * noise).sum().item())
print('pulls', pulls.tolist(), 'drops', [round(d, 6) for d in drops])
print('checksum', f'{sum(t[1] for t in trace):.6f}', f'{sum(t[2] for t in trace):.6f}', [t[0] for t in trace],
      f'{model.weight.sum().item():.8f}')
