# corpus: runnable
# Red team 55 probe (not blind): a dict of Python lists read per batch with torch.tensor(data[key][i:j]) where
# converting the column once would change results: a weight column of ints with a few floats (a batch of ints
# is int64, the whole column float32), a label column rewritten by pseudo-labelling between epochs, and a
# column of edge lists extended as the loop samples new edges.
import random

import torch
import torch.nn as nn

torch.manual_seed(5525)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'
random.seed(5525)

N = 48
data = {
    'x': [[random.gauss(0, 1) for _ in range(3)] for _ in range(N)],
    'y': [i % 2 for i in range(N)],
    'w': [1 if i < 40 else 0.5 for i in range(N)],
}
for i in range(N):
    data['x'][i][0] += data['y'][i]
model = nn.Linear(3, 2).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
kinds, losses = [], []
for epoch in range(4):
    for s in range(0, N, 8):
        x = torch.tensor(data['x'][s:s + 8], device=device)
        y = torch.tensor(data['y'][s:s + 8], device=device)
        w = torch.tensor(data['w'][s:s + 8], device=device)
        kinds.append(str(w.dtype).split('.')[-1])
        loss = (nn.functional.cross_entropy(model(x), y, reduction='none') * w).sum() / w.sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
        if w.dtype == torch.int64:
            losses[-1] += 0.001
    with torch.no_grad():
        pred = model(torch.tensor(data['x'], device=device)).argmax(1).tolist()
    for i in range(0, N, 5):
        data['y'][i] = pred[i]

print('kinds', kinds[:8])
print('losses', [round(v, 5) for v in losses[:4]], round(sum(losses), 5))
print('labels', sum(data['y']), 'checksum', round(sum(losses) + sum(data['y']), 5))
