# corpus: runnable
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
class Arrays(Dataset):
    def __init__(self, n):
        self.x = np.random.RandomState(0).rand(n, 4)
        self.y = np.random.RandomState(1).rand(n, 1)
    def __len__(self):
        return len(self.x)
    def __getitem__(self, i):
        return torch.from_numpy(self.x[i]).to(torch.float32), torch.from_numpy(self.y[i]).to(dtype=torch.float32)
loader = DataLoader(Arrays(32), batch_size=8)
model = torch.nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(2):
    for xb, yb in loader:
        xb, yb = xb.to(device), yb.to(device)
        loss = ((model(xb) - yb) ** 2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
    print(round(loss.item(), 5))
