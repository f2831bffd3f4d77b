# corpus: runnable
import torch
from torch.utils.data import DataLoader, TensorDataset
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
X = torch.randn(32, 4).to(device)
y = torch.randn(32, 1).to(device)
loader = DataLoader(TensorDataset(X, y), batch_size=8)
model = torch.nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(2):
    for xb, yb in loader:
        xb, yb = xb.to(device), yb.to(device)
        loss = ((model(xb) - yb) ** 2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
    print(round(loss.item(), 5))
