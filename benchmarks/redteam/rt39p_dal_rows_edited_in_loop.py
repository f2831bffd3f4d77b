# corpus: runnable
# Red team 39 probe (not blind, after wave 2): dict-as-list with the rows of `data["x"]` edited in place INSIDE the
# epoch loop, through a loop variable, a helper handed the column, and an alias of one row (a whole-column hoist
# above the loop would read the rows before the edits).
import torch
import torch.nn as nn

torch.manual_seed(35)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"
g = torch.Generator().manual_seed(35)
data = {"x": torch.randn(24, 2, generator=g).tolist(), "y": torch.randint(0, 2, (24,), generator=g).tolist()}
model = nn.Linear(2, 2).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)


def shrink(rows: list) -> None:
    for r in rows:
        r[0] *= 0.5


def run_epoch() -> float:
    total = 0.0
    for s in range(0, 24, 6):
        idx = list(range(s, s + 6))
        xb = torch.tensor([data["x"][i] for i in idx], device=device)
        yb = torch.tensor([data["y"][i] for i in idx], device=device)
        loss = nn.functional.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += float(loss)
        for row in data["x"]:
            row[1] += 0.25
    return total


def run_epoch2() -> float:
    total = 0.0
    for s in range(0, 24, 6):
        idx = list(range(s, s + 6))
        xb = torch.tensor([data["x"][i] for i in idx], device=device)
        loss = model(xb).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += float(loss)
        shrink(data["x"])
    return total


def run_epoch3() -> float:
    total = 0.0
    rows = data["x"]
    for s in range(0, 24, 6):
        idx = list(range(s, s + 6))
        xb = torch.tensor([data["x"][i] for i in idx], device=device)
        loss = model(xb).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += float(loss)
        first = rows[0]
        first[1] = -1.0
        for r in map(list.reverse, rows[:3]):
            pass
    return total


for epoch in range(2):
    print(epoch, f"{run_epoch():.12f}", f"{run_epoch2():.12f}", f"{run_epoch3():.12f}")
print(data["x"][0])
