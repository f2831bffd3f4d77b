# corpus: runnable
import torch
torch.manual_seed(0)
device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
class Meter:
    def __init__(self):
        self.sum = 0.0
        self.n = 0
    def avg(self):
        return self.sum / max(self.n, 1)
model = torch.nn.Linear(4, 1).to(device)
data = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(5)]
meter = Meter()
for x, y in data:
    x, y = x.to(device), y.to(device)
    with torch.no_grad():
        loss = ((model(x) - y) ** 2).mean()
    meter.sum += loss.item() * x.size(0)
    meter.n += x.size(0)
print(f"{meter.avg():.5f}", type(meter.sum).__name__)
