# corpus: runnable
# Red team 55 probe (not blind): names unpacked from tuples that passed through enumerate / list / sorted /
# iter / pop, where the later positions are Python numbers beside a tensor in the first position (jedi reads
# them as tensors), and the mirror case (a number first, a tensor second).
import random

import torch

torch.manual_seed(5521)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'
random.seed(5521)

items = [(torch.randn(3, device=device), random.randint(1, 9), random.random()) for _ in range(12)]
pairs = [(k, torch.randn(2, device=device)) for k in range(12)]

sizes, weights = [], []
for k, (t, n, w) in enumerate(items):
    sizes.append(n)
    weights.append(w)
size_t = torch.tensor(sizes)
weight_t = torch.tensor(weights)

ranked = sorted(items, key=lambda r: r[1])
counts = []
for t, n, w in ranked:
    counts.append(n)
count_t = torch.tensor(counts)

pool = list(items)
popped = []
while pool:
    t, n, w = pool.pop()
    popped.append(w)
popped_t = torch.tensor(popped)

firsts = []
for k, pair in enumerate(list(items)):
    t, n, w = pair
    firsts.append(n)
first_t = torch.tensor(firsts)

norms = []
for j, (k, v) in enumerate(pairs):
    norms.append(v.norm().item())
norm_t = torch.tensor(norms)

print('sizes', size_t.tolist(), size_t.dtype, 'weights', round(weight_t.sum().item(), 6), weight_t.dtype)
print('counts', count_t.tolist(), 'popped', round(popped_t.sum().item(), 6), 'firsts', first_t.tolist())
print('norms', round(norm_t.sum().item(), 5), norm_t.dtype)
print('checksum', round(size_t.sum().item() + weight_t.sum().item() + count_t.sum().item() + popped_t.sum().item()
                        + first_t.sum().item() + norm_t.sum().item(), 5))
