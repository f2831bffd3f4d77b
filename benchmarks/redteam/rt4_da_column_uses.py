# corpus: runnable
# A dict of lists used as a dataset whose columns are also used as lists elsewhere in the
# program: shuffled with `random.shuffle` per epoch, extended, counted, concatenated, dumped.
import json
import random

import torch

random.seed(0)
data = {"x": [[float(i), float(i) * 0.5] for i in range(8)], "y": [i % 3 for i in range(8)]}
for epoch in range(2):
    random.shuffle(data["y"])
    for s in range(0, 8, 4):
        xb = torch.tensor(data["x"][s : s + 4])  # paef: refuse dict-as-list
        yb = torch.tensor(data["y"][s : s + 4])  # paef: refuse dict-as-list
        print(epoch, xb.sum().item(), yb.tolist())
print(data["y"].count(1), json.dumps(data["y"]))

log = {"step": [0, 1, 2, 3, 4, 5], "lr": [0.1, 0.1, 0.05, 0.05, 0.01, 0.01]}
for s in range(0, 6, 3):
    lr = torch.tensor(log["lr"][s : s + 3])  # paef: expect-fix dict-as-list
    print(lr)
log["lr"] = log["lr"] + [0.001]
print(len(log["lr"]), log["lr"][-2:])

bank = {"a": [1, 2, 3, 4], "b": [4, 3, 2, 1]}
for s in range(0, 4, 2):
    ab = torch.tensor(bank["a"][s : s + 2])  # paef: refuse dict-as-list
    print(ab)
    bank["a"].append(s)
print(bank)
