# corpus: runnable
import random
import torch
torch.manual_seed(0)
random.seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
data = {"user": [1, 2, 3, 4, 5, 6], "label": [0.0, 1.0, 0.0, 1.0, 1.0, 0.0]}
model = torch.nn.Embedding(10, 1).to(device)
for epoch in range(3):
    order = list(range(6))
    random.shuffle(order)
    for b in range(0, 6, 3):
        idx = order[b:b + 3]
        users = torch.tensor([data["user"][i] for i in idx], device=device)
        labels = torch.tensor([data["label"][i] for i in idx], device=device)
        with torch.no_grad():
            pred = model(users).squeeze(-1)
        for j, p in zip(idx, pred.tolist()):
            data["label"][j] = 1.0 if p > 0 else 0.0
        print(epoch, labels.tolist())
cols = {"x": [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]], "y": [1, 0, 1, 0]}
for epoch in range(2):
    for s in range(0, 4, 2):
        xb = torch.tensor(cols["x"][s:s + 2], device=device)
        yb = torch.tensor(cols["y"][s:s + 2], device=device)
        yb[yb == 0] = -1
        kept = yb
        kept.mul_(2)
        print(xb.sum().item(), yb.tolist(), cols["y"])
