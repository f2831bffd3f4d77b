# corpus: runnable
import torch
from torch.utils.data import DataLoader, Dataset
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
class Preloaded(Dataset):
    def __init__(self, n):
        self.x = torch.randn(n, 4, device=device)
        self.y = torch.randn(n, 1).to(device)
    def __len__(self):
        return len(self.x)
    def __getitem__(self, i):
        return self.x[i], self.y[i]
loader = DataLoader(Preloaded(32), batch_size=8)
model = torch.nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(2):
    for xb, yb in loader:
        xb, yb = xb.to(device), yb.to(device)
        loss = ((model(xb) - yb) ** 2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
    print(round(loss.item(), 5))
