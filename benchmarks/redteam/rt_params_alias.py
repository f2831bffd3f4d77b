# corpus: runnable
import torch
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = torch.nn.Linear(3, 1).to(device)
params = list(model.parameters())
opt = torch.optim.SGD(params, lr=0.5)
x, y = torch.randn(8, 3).to(device), torch.randn(8, 1).to(device)
for step in range(3):
    loss = ((model(x) - y) ** 2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    snap = torch.tensor(model.weight.tolist(), device=device)
    print(snap.sum().item())
w = model.weight
groups = [{"params": [w]}]
opt2 = torch.optim.SGD(groups, lr=0.5)
for step in range(3):
    loss = ((model(x) - y) ** 2).mean()
    opt2.zero_grad(); loss.backward(); opt2.step()
    snap2 = torch.tensor(w.tolist(), device=device)
    print(snap2.sum().item())
