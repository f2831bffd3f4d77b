# corpus: runnable
import torch
torch.manual_seed(0)
device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
model = torch.nn.Linear(4, 1).to(device)
data = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(5)]
correct = 0
for x, y in data:
    x, y = x.to(device), y.to(device)
    with torch.no_grad():
        pred = model(x) > 0
    correct += (pred == (y > 0)).sum().item()
else:
    print("done", correct)
print(correct)
