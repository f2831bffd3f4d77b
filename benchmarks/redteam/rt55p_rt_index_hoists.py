# corpus: runnable
# Red team 55 probe (not blind): index and mask tensors built from constants inside a loop and then changed
# in place where the change is easy to miss: through a NumPy view, index_fill_, masked_fill_, an out= sort,
# a helper that writes its argument, a view(-1) scatter_, a tensor kept in a dict and bumped there. Each
# rebuild starts clean; hoisted, the changes would pile up.
import torch

torch.manual_seed(5522)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

n = 10
scores = torch.randn(6, n)
seen = [[1, 2], [3], [0, 9], [4, 5, 6], [7], [8, 2]]


def drop_seen(mask, cols):
    mask[cols] = False
    return mask


picked, orders, slots, totals = [], [], [], []
state = {}
for u in range(6):
    a = torch.tensor([True] * n)
    a.numpy()[seen[u]] = False
    b = torch.arange(n)
    b.index_fill_(0, torch.tensor(seen[u]), 0)
    c = torch.tensor([1.0] * n)
    c.masked_fill_(scores[u] > 0.5, 0.0)
    vals = torch.empty(n)
    idx = torch.arange(n)
    torch.sort(scores[u], descending=True, stable=True, out=(vals, idx))
    m = drop_seen(torch.tensor([True] * n), seen[u])
    grid = torch.zeros(2, 5)
    grid.view(-1).scatter_(0, torch.tensor(seen[u]), 1.0)
    state['count'] = torch.tensor([0, 0, 0])
    state['count'][u % 3] += 1
    picked.append(int(a.sum()) + int(m.sum()))
    orders.append(idx[:3].tolist())
    slots.append(b.sum().item() + c.sum().item() + grid.sum().item())
    totals.append(state['count'].tolist())

print('picked', picked)
print('orders', orders)
print('slots', slots)
print('totals', totals)
print('checksum', sum(picked) + sum(sum(o) for o in orders) + sum(slots) + sum(sum(t) for t in totals))
