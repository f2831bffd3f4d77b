# corpus: runnable
# Loaders in a dict comprehension; the host batch is changed in place right after its copy to the
# device is queued (a non-blocking copy from pinned memory would race with the change on a GPU).
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
net = nn.Linear(4, 1).to(device)
loaders = {s: DataLoader(TensorDataset(torch.randn(12, 4)), batch_size=4) for s in ("a", "b")}
sums = []
for name in ("a", "b"):
    for (x,) in loaders[name]:
        xd = x.to(device)
        x.zero_()
        sums.append(round(net(xd).sum().item(), 4))
        sums.append(x.sum().item())
print(sums)
