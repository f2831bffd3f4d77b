# corpus: runnable
# Per-epoch tensors built from iterators the program made before the loop: a generator of class
# weights summed, a `zip` of warmup factors, a `map` over a schedule, `next()` on a shared stream.
# An iterator is consumed by the first epoch: the later epochs see it empty (or its next item).
import itertools

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
model = nn.Linear(4, 3)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
xs, ys = torch.randn(6, 4), torch.randint(0, 3, (6,))

class_counts = [3, 2, 1]
inv_freq = (1.0 / c for c in class_counts)
warm = zip([0.1, 0.5, 1.0], [1.0, 1.0, 1.0])
milestones = map(float, ["0.5", "0.25"])
stream = itertools.count(1)

log = []
for epoch in range(3):
    norm = torch.full((3,), sum(inv_freq))
    pairs = torch.tensor(list(warm))
    decay = torch.tensor(list(milestones))
    tick = torch.full((1,), float(next(stream)))
    weight = torch.ones(3) / (norm + 1.0)
    loss = nn.functional.cross_entropy(model(xs), ys, weight=weight) * tick.squeeze()
    opt.zero_grad()
    loss.backward()
    opt.step()
    log.append((round(loss.item(), 5), tuple(pairs.shape), decay.tolist(), tick.item()))
print(log)

lengths = iter([4, 5, 6])
sizes = []
for step in range(3):
    buf = torch.zeros(max(lengths, default=2))
    sizes.append(buf.numel())
print("buffer sizes", sizes)
