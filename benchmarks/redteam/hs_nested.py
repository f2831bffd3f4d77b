# corpus: runnable
import torch
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = torch.nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(3)]
total = 0.0
for epoch in range(2):
    for x, y in data:
        x, y = x.to(device), y.to(device)
        loss = ((model(x) - y) ** 2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        total += loss.item()
    print(f"epoch {epoch}: {total:.4f}")
    print(total)
print(total)
def fit():
    seen = 0
    for epoch in range(2):
        run = 0.0
        for x, y in data:
            x, y = x.to(device), y.to(device)
            loss = ((model(x) - y) ** 2).mean()
            opt.zero_grad(); loss.backward(); opt.step()
            run += loss.item()
            seen += 1
        yield run, seen
for r, s in fit():
    print(r, s)
