# corpus: runnable
# Red team 51 (blind): evaluation decisions taken row by row on read values. Greedy matching of predicted
# to ground-truth points (a column is struck out once taken: through a NumPy view of the cost matrix, through
# nn.init on a column view, through a dict entry holding the matrix), greedy decoding whose next row is biased
# by the token just read (through unbind views), and an early-stopping scan over a per-epoch loss table.
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(5105)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

g = torch.Generator().manual_seed(55)
pts = torch.randn(64, 3, generator=g)
tgt = pts[:, :2] * 1.5 + 0.2 * torch.randn(64, 2, generator=g)
net = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 2)).to(device)
opt = torch.optim.Adam(net.parameters(), lr=0.03)
table = torch.zeros(12, 4)
for epoch in range(12):
    for b in range(4):
        xb, yb = pts[b * 16:(b + 1) * 16].to(device), tgt[b * 16:(b + 1) * 16].to(device)
        loss = ((net(xb) - yb) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        table[epoch, b] = loss.detach().cpu()

with torch.no_grad():
    pred = net(pts[:10].to(device)).cpu()
gt = tgt[torch.tensor([0, 0, 1, 2, 2, 3, 5, 5, 6, 8])] + 0.3 * torch.randn(10, 2, generator=g)

# 1. greedy matching, the taken column struck out through a NumPy view
cost = torch.cdist(pred, gt)
view = cost.numpy()
pairs = []
for i in range(cost.shape[0]):
    j = cost[i].argmin().item()
    pairs.append(j)
    view[:, j] = np.inf
print('numpy-struck pairs', pairs, len(set(pairs)))

# 2. the same, struck out through nn.init on a column view
sim = -torch.cdist(pred, gt)
taken = []
for i in range(len(sim)):
    j = sim[i].argmax().item()
    taken.append(j)
    nn.init.constant_(sim.select(1, j), -1e9)
print('init-struck pairs', taken, len(set(taken)))

# 3. the same, struck out through the dict that holds the matrix
state = {'cost': torch.cdist(pred, gt)}
mat = state['cost']
chosen, dist = [], 0.0
for i in range(mat.size(0)):
    j = mat[i].argmin().item()
    dist += mat[i].min().item()
    chosen.append(j)
    state['cost'][:, j] = float('inf')
print('dict-struck pairs', chosen, f'{dist:.10f}')

# 4. greedy decoding: the next row is biased by the token read now, through unbind views
logits = torch.cat([pred, -pred, pred * 0.5], dim=1)
bias = torch.linspace(-1.0, 1.0, logits.size(1))
rows = logits.unbind(0)
tokens = []
for t in range(logits.size(0)):
    tok = logits[t].argmax().item()
    tokens.append(tok)
    if t + 1 < len(rows):
        rows[t + 1].add_(bias.roll(tok) * 3.0)
print('decoded', tokens)

# 5. early stopping scanned on the per-epoch table: a row's best batch decides
best, since, stop_at = float('inf'), 0, None
for e in range(table.size(0)):
    low = table[e].min().item()
    if low < best - 5e-3:
        best, since = low, 0
    else:
        since += 1
        if since >= 2:
            stop_at = e
            break
print('stop', stop_at, f'{best:.10f}')
