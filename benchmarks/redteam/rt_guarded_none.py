# corpus: runnable
import torch
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
class_weights = None
use_weights = class_weights is not None
model = torch.nn.Linear(4, 3).to(device)
data = [(torch.randn(8, 4), torch.randint(0, 3, (8,))) for _ in range(3)]
for x, y in data:
    x, y = x.to(device), y.to(device)
    if use_weights:
        w = torch.tensor(class_weights, device=device)
        loss = torch.nn.functional.cross_entropy(model(x), y, weight=w)
    else:
        loss = torch.nn.functional.cross_entropy(model(x), y)
    print(round(loss.item(), 5))
table = [[1, 2], [3]]
for i in range(3):
    try:
        t = torch.tensor(table, device=device)
    except ValueError:
        t = torch.zeros(2, device=device)
    print(t.sum().item())
