# corpus: runnable
# Dict-of-lists datasets read per batch where converting a whole column once differs from
# converting the rows a batch picks: a column mixing ints and floats, a column holding one
# integer too big for int64 that no batch picks, a bool column, a column of ints with one None
# never picked, a column extended after the first epoch through an alias, a column replaced.
import random
import torch

torch.set_num_threads(1)
random.seed(0)
n = 8
data = {
    "user": list(range(n)),
    "score": [1, 2, 3, 4, 5, 6, 7, 2.5],
    "big": [3] * (n - 1) + [2**70],
    "flag": [i % 2 == 0 for i in range(n)],
    "opt": [1] * (n - 1) + [None],
}
batches = [[0, 1, 2], [3, 4, 5], [6, 5, 4]]

out = []
for idx in batches:
    s = torch.tensor([data["score"][i] for i in idx])
    out.append((str(s.dtype), s.tolist()))
print("A mixed", out)

out = []
for idx in batches:
    b = torch.tensor([data["big"][i] for i in idx])
    out.append(b.tolist())
print("B big", out)

out = []
for idx in batches:
    f = torch.tensor([data["flag"][i] for i in idx])
    out.append((str(f.dtype), f.tolist()))
print("C bool", out)

out = []
for idx in batches:
    o = torch.tensor([data["opt"][i] for i in idx])
    out.append(o.tolist())
print("D none", out)

users = data["user"]
out = []
for epoch in range(2):
    for idx in batches:
        u = torch.tensor([data["user"][i] for i in idx])
        out.append(u.sum().item())
    users.extend([100, 200])
    batches.append([8, 9])
print("E extended", out)

out = []
for epoch in range(2):
    for idx in batches[:2]:
        u = torch.tensor([data["user"][i] for i in idx])
        out.append(u.tolist())
    data["user"] = [v * 10 for v in data["user"]]
print("F replaced", out)
