# corpus: runnable
# Names bound by a walrus inside a condition and by `match` capture patterns, read by a factory
# later in the same iteration: the names change each step.
import torch

torch.set_num_threads(1)
data = [3, 5, 8]
sizes = []
i = 0
for step in range(3):
    if (n := data[i]) > 4:
        pass
    z = torch.zeros(n)
    sizes.append(z.numel())
    i += 1
print("walrus sizes", sizes)

events = [("lr", 0.1), ("lr", 0.01), ("stop", None)]
got = []
cur = 1.0
for ev in events:
    match ev:
        case ("lr", value):
            cur = value
        case ("stop", _):
            cur = -1.0
    t = torch.tensor(cur)
    got.append(round(float(t), 3))
print("match", got)

shapes = [{"h": 2}, {"h": 3, "w": 2}, {"w": 4}]
made = []
h, w = 1, 1
for spec in shapes:
    match spec:
        case {"h": h, "w": w}:
            pass
        case {"h": h}:
            w = 1
        case {"w": w}:
            h = 1
    grid = torch.ones(h, w)
    made.append(tuple(grid.shape))
print("match shapes", made)

total = 0
for step in range(3):
    if (chunk := torch.tensor([step, step + 1])).sum() > 2:
        total += int(chunk.sum())
print("walrus total", total)
