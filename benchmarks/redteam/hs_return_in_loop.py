# corpus: runnable
import torch
torch.manual_seed(0)
device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
model = torch.nn.Linear(4, 1).to(device)
data = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(6)]

def evaluate(max_batches=None):
    total = 0.0
    for i, (x, y) in enumerate(data):
        x, y = x.to(device), y.to(device)
        if max_batches is not None and i == max_batches:
            return total / i
        with torch.no_grad():
            total += ((model(x) - y) ** 2).mean().item()
    return total / len(data)

print(evaluate(3))
print(evaluate())
