# corpus: runnable
import torch
torch.manual_seed(0)
device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
model = torch.nn.Linear(4, 2).to(device)
data = [(torch.randn(8, 4), torch.randint(0, 2, (8,))) for _ in range(5)]
stats = {"loss": 0.0, "correct": 0}
for x, y in data:
    x, y = x.to(device), y.to(device)
    with torch.no_grad():
        out = model(x)
        stats["loss"] += torch.nn.functional.cross_entropy(out, y).item()
        stats["correct"] += (out.argmax(1) == y).sum().item()
print(stats)
