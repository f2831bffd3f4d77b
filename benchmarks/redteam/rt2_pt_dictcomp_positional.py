# corpus: runnable
# Loaders in a dict comprehension with DataLoader's arguments given by position (pin_memory is the 8th).
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
net = nn.Linear(5, 2).to(device)
opt = torch.optim.SGD(net.parameters(), lr=0.05)
sets = {s: TensorDataset(torch.randn(16, 5), torch.randint(0, 2, (16,))) for s in ("train", "test")}
loaders = {s: DataLoader(sets[s], 4, False, None, None, 0, None, False) for s in sets}
out = []
for phase in ("train", "test"):
    for x, y in loaders[phase]:
        x = x.to(device)
        y = y.to(device)
        loss = nn.functional.cross_entropy(net(x), y)
        if phase == "train":
            opt.zero_grad()
            loss.backward()
            opt.step()
        out.append(round(loss.item(), 4))
print(out)
