# corpus: runnable
# Red team 51 (blind): stateful metric objects. A MeanMetric whose compute() hands back its own state and
# whose reset() zeroes it in place, a bincount confusion matrix reset the same way, best values snapshotted
# with torch.tensor(... .item()), and a criterion returning a LossOutput object with its own item() and
# backward(): the running loss total and the recorded list are read through that item().
import json

import torch
import torch.nn as nn

from criterion import criterion
from metrics import ConfusionMatrix, MeanMetric

torch.manual_seed(5103)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

g = torch.Generator().manual_seed(53)
X = torch.randn(72, 5, generator=g)
Y = torch.bucketize(X[:, 0] + 0.5 * X[:, 1], torch.tensor([-0.5, 0.5]))
train = [(X[i:i + 12], Y[i:i + 12]) for i in range(0, 48, 12)]
val = [(X[i:i + 12], Y[i:i + 12]) for i in range(48, 72, 12)]

model = nn.Sequential(nn.Linear(5, 10), nn.Tanh(), nn.Linear(10, 3)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.2)
val_loss = MeanMetric()
val_sum = MeanMetric()
cm = ConfusionMatrix(3)

best_loss = torch.tensor(float('inf'))
best_sum = None
log = []
for epoch in range(5):
    running = 0.0
    step_values = []
    for x, y in train:
        out = criterion(model(x.to(device)), y.to(device))
        opt.zero_grad()
        out.backward()
        opt.step()
        running += out.item()
        step_values.append(out.item())
    with torch.no_grad():
        for x, y in val:
            logits = model(x.to(device))
            val_loss.update(nn.functional.cross_entropy(logits, y.to(device)), len(y))
            val_sum.update(nn.functional.cross_entropy(logits, y.to(device), reduction='sum'))
            cm.update(logits.argmax(1), y)
    current = torch.tensor(val_loss.compute().item())
    if current < best_loss:
        best_loss = current
        best_sum = torch.tensor(val_sum.sum().item())
        best_cm = cm.compute().clone()
    seen = torch.tensor(step_values)
    log.append({'epoch': epoch, 'train': running / len(train), 'steps': step_values,
                'val': current.item(), 'diag': cm.compute().diagonal().tolist(), 'spread': seen.std().item()})
    print(epoch, repr(running), current.dtype, f'{current.item():.10f}', best_loss, best_sum)
    val_loss.reset()
    val_sum.reset()
    cm.reset()

print('best', best_loss.dtype, f'{best_loss.item():.12f}', best_sum.dtype, f'{best_sum.item():.12f}')
print('best cm', best_cm.tolist())
print(json.dumps(log[-1]))
