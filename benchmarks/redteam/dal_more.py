# corpus: runnable
import torch
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
data = {"x": [[0.5, 1.0], [2.0, 3.0], [4.0, 5.0], [6.0, 7.0]], "y": [0, 1, 1, 0]}
def relabel(d):
    d["y"] = [1 - v for v in d["y"]]
for epoch in range(2):
    for s in range(0, 4, 2):
        idx = [s, s + 1]
        yb = torch.tensor([data["y"][i] for i in idx], device=device)
        print(yb.tolist())
    relabel(data)
for epoch in range(2):
    for s in range(0, 4, 2):
        xb = torch.tensor(data["x"][s:s + 2], device=device)
        xb.mul_(2)
        print(xb.sum().item())
        data["x"].append([1.0, 1.0])
mem = {"a": [1.0, 2.0, 3.0, 4.0]}
for epoch in range(2):
    for s in range(0, 4, 2):
        ab = torch.tensor(mem["a"][s:s + 2], device=device)
        keep = [ab]
        keep[0] += 1
        print(ab.tolist(), mem["a"])
