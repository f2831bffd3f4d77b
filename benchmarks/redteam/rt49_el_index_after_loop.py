# corpus: runnable
# Red team 49 (blind): per-element post-processing loops whose index lives on after the loop: a log line
# printing the last index, an outer loop and an inner element loop both named `i`, a `for ... else` that
# reports the count, `enumerate(..., start=1)`, and a `while` loop over a growing buffer.
import torch
import torch.nn as nn

torch.manual_seed(4901)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

net = nn.Sequential(nn.Linear(5, 8), nn.Tanh(), nn.Linear(8, 4)).to(device)
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
data = torch.randn(24, 5)
target = torch.randn(24, 4)

for epoch in range(3):
    out = net(data.to(device))
    loss = ((out - target.to(device)) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print('epoch', epoch, f'{loss.item():.8f}')

with torch.no_grad():
    scores = net(data.to(device))[:, 0].cpu()

calibrated = torch.empty_like(scores)
for i in range(len(scores)):
    calibrated[i] = torch.sigmoid(scores[i] * 1.5) * 2.0 - 1.0
print('calibrated', [round(v, 6) for v in calibrated.tolist()[:5]])
print('last index processed', i)

# outer loop over repeats, inner element loop reusing `i`
rounds = torch.zeros(3)
for i in range(3):
    smoothed = scores.clone()
    for i in range(scores.shape[0]):
        smoothed[i] = scores[i] * 0.9 + 0.1 * torch.tanh(scores[i])
    rounds[i % 3] += smoothed.sum()
    print('round', i, f'{smoothed.sum().item():.6f}')
print('rounds', [round(v, 5) for v in rounds.tolist()])

# for ... else: the else reports how far the loop went
clipped = torch.zeros_like(scores)
for j in range(scores.numel()):
    clipped[j] = scores[j].clamp(-0.2, 0.2) * 3
else:
    print('clipped all', j + 1, 'values')
print('clipped', f'{clipped.abs().sum().item():.6f}')

# enumerate with a start: `n` is a running count read after the loop
squashed = torch.zeros(len(scores))
n = 0
for n, v in enumerate(scores, start=1):
    squashed[n - 1] = v / (1 + v.abs())
print('squashed', n, f'{squashed.sum().item():.6f}')

# the loop runs once per element, then `idx` doubles as the number of warm buckets
buckets = torch.zeros(8)
idx = -1
for idx in range(buckets.shape[0]):
    buckets[idx] = scores[idx] ** 2
print('buckets', idx + 1, [round(v, 6) for v in buckets.tolist()])
