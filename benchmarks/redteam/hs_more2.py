# corpus: runnable
import torch
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = torch.nn.Linear(4, 2).to(device)
data = [(torch.randn(8, 4), torch.randint(0, 2, (8,))) for _ in range(5)]
total = 0.0
for x, y in data:
    x = x.to(device)
    with torch.no_grad():
        total += model(x).sum().item()
results = {"total": total}
print(results, total == results["total"], str(total), repr(total))
best = 0
for x, y in data:
    x = x.to(device)
    with torch.no_grad():
        best = max(best, model(x).max().item())
print(best)
acc = 0
for x, y in data:
    x = x.to(device)
    with torch.no_grad():
        acc += (model(x).argmax(1).cpu() == y).sum().item()
print(acc)
s = 0
for x, y in data:
    x = x.to(device)
    with torch.no_grad():
        s = s + model(x).sum().item()
print("%.4f" % s, s)
