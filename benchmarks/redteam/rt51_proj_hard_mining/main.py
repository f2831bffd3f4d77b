# corpus: runnable
# Red team 51 (blind): online hard-example mining over a pool. Each round a scoring pass (engine.py,
# model.eval(), no backward in sight) returns the per-sample losses of the whole pool; the caller keeps
# the top-k hardest and back-propagates their mean. A plain evaluation reports loss and per-class recall;
# a CSV history and a patience counter decide when to stop.
import torch
import torch.nn as nn

from engine import evaluate, score_pool
from logging_utils import History

torch.manual_seed(5102)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

g = torch.Generator().manual_seed(52)
X = torch.randn(80, 6, generator=g)
Y = (X @ torch.tensor([1.0, -1.0, 0.5, 0.0, 2.0, -0.5]) > 0.3).long() + (X[:, 0] > 1.0).long()
pool = [(X[i:i + 10], Y[i:i + 10]) for i in range(0, 60, 10)]
test = [(X[i:i + 10], Y[i:i + 10]) for i in range(60, 80, 10)]

model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 3)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=0.02)
hist = History(['round', 'hard_loss', 'test_loss', 'recall0'])

best, bad = float('inf'), 0
for rnd in range(10):
    losses = score_pool(model, pool, device)
    hard = losses.topk(12).values
    objective = hard.mean()
    opt.zero_grad()
    objective.backward()
    opt.step()
    test_loss, recalls = evaluate(model, test, device, 3)
    hist.log(rnd, round(objective.item(), 9), test_loss, recalls[0])
    print(rnd, f'{objective.item():.10f}', f'{test_loss:.10f}', {k: round(v, 4) for k, v in recalls.items()})
    if test_loss < best - 1e-4:
        best, bad = test_loss, 0
    else:
        bad += 1
        if bad == 3:
            break

print(hist.dump())
print('rows', hist.rows, 'best', repr(best))
print('grad norm', f'{sum(p.grad.norm() ** 2 for p in model.parameters()).sqrt().item():.8f}')
