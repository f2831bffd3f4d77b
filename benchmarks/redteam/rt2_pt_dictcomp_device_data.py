# corpus: runnable
# Loaders built in dict comprehensions over datasets whose tensors are already on the device
# (the whole data set moved once): a pinning loader raises on a GPU.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
X, Y = torch.randn(24, 5), torch.randint(0, 2, (24,))
datasets = {"train": TensorDataset(X[:16].to(device), Y[:16].to(device)),
            "val": TensorDataset(X[16:].to(device), Y[16:].to(device))}
loaders = {k: DataLoader(ds, batch_size=4, shuffle=False) for k, ds in datasets.items()}
splits = {"train": (X[:16].to(device), Y[:16].to(device)), "val": (X[16:].to(device), Y[16:].to(device))}
more = {k: DataLoader(TensorDataset(*splits[k]), batch_size=8) for k in splits}
net = nn.Linear(5, 2).to(device)
out = []
for k in ("train", "val"):
    for x, y in loaders[k]:
        x = x.to(device)
        y = y.to(device)
        out.append(round(nn.functional.cross_entropy(net(x), y).item(), 4))
    for x, y in more[k]:
        x = x.to(device)
        out.append(round(net(x).sum().item(), 4))
print(out)
