# corpus: runnable
# Loaders built in a dict comprehension from a shared keyword dict that already names pin_memory.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
net = nn.Linear(6, 3).to(device)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
data = {s: TensorDataset(torch.randn(24, 6), torch.randint(0, 3, (24,))) for s in ("train", "val")}
loader_kw = {"batch_size": 8, "num_workers": 0, "pin_memory": False}
loaders = {s: DataLoader(data[s], shuffle=False, **loader_kw) for s in data}
total = []
for epoch in range(2):
    for phase in ("train", "val"):
        for x, y in loaders[phase]:
            x = x.to(device)
            y = y.to(device)
            loss = nn.functional.cross_entropy(net(x), y)
            if phase == "train":
                opt.zero_grad()
                loss.backward()
                opt.step()
            total.append(round(loss.item(), 4))
print(total)
