# corpus: runnable
import json
import torch
torch.manual_seed(0)
device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
model = torch.nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(5)]
log = {}
for epoch in range(2):
    total = 0.0
    for x, y in data:
        x, y = x.to(device), y.to(device)
        loss = ((model(x) - y) ** 2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        total += loss.item()
    log[epoch] = total
    print(json.dumps({"epoch": epoch, "loss": round(total, 5)}))
print(json.dumps(log))
