# corpus: runnable
import torch
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = torch.nn.Linear(4, 2).to(device)
data = [(torch.randn(8, 4), torch.randint(0, 2, (8,))) for _ in range(5)]
def evaluate():
    correct = 0
    total = 0
    for x, y in data:
        x, y = x.to(device), y.to(device)
        with torch.no_grad():
            correct += (model(x).argmax(1) == y).sum().item()
        total += y.size(0)
    acc = correct / total
    return acc, correct
acc, c = evaluate()
print(acc, c, type(c).__name__, f"{acc:.3f}")
def losses():
    tot = 0.0
    n = 0
    for x, y in data:
        x, y = x.to(device), y.to(device)
        with torch.no_grad():
            tot += torch.nn.functional.cross_entropy(model(x), y, reduction="sum").item()
        n += len(y)
    print("avg", tot / n, isinstance(tot, float))
    return {"loss": tot}
print(losses())
def count_pos():
    hits = 0
    for x, y in data:
        x = x.to(device)
        with torch.no_grad():
            hits += int((model(x) > 0).sum())
    return [hits] * 2
print(count_pos())
def totals():
    t = 0.0
    try:
        for x, y in data:
            x = x.to(device)
            with torch.no_grad():
                t += model(x).sum().item()
            if t > 1e9:
                raise RuntimeError
    finally:
        print("t", t)
    return t
print(totals())
