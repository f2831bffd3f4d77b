# corpus: runnable
import torch
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = torch.nn.Linear(4, 3).to(device)
data = [(torch.randn(8, 4), torch.randint(0, 3, (8,))) for _ in range(4)]
def evaluate():
    correct = 0
    total_loss = 0.0
    maxes = []
    for x, y in data:
        x, y = x.to(device), y.to(device)
        weights = torch.tensor([1.0, 2.0, 0.5]).to(device)
        out = model(x)
        total_loss += torch.nn.functional.cross_entropy(out, y, weight=weights).item()
        correct += (out.argmax(1) == y).sum().item()
        for row in out:
            maxes.append(row.max().item())
        probs = 1 / (1 + torch.exp(-out))
        pos = torch.arange(out.size(0)).to(device)
    return correct, round(total_loss, 4), torch.tensor(maxes).sum().item(), probs.sum().item(), pos.sum().item()
print(evaluate())
