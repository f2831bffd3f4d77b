# corpus: runnable
import torch
torch.manual_seed(0)
device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
model = torch.nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(5)]
history = []
for epoch in range(3):
    epoch_loss = 0
    for x, y in data:
        x, y = x.to(device), y.to(device)
        loss = ((model(x) - y) ** 2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        epoch_loss += loss.item()
    history.append(epoch_loss / len(data))
print([round(h, 5) for h in history])
print(history)
