# corpus: runnable
# Loaders and copies written the way the PyTorch examples write them: loader options in a
# dict that carries `pin_memory` only on a GPU, `.to()` given `non_blocking` by position or
# through `**kw`, a batch copied with `copy=True`.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
torch.set_num_threads(1)
use_cuda = torch.cuda.is_available()
device = torch.device("cuda" if use_cuda else "cpu")
ds = TensorDataset(torch.randn(16, 4), torch.randint(0, 2, (16,)))
kwargs = {"num_workers": 0, "pin_memory": True} if use_cuda else {}
train_loader = DataLoader(ds, batch_size=4, shuffle=False, **kwargs)
test_loader = DataLoader(ds, batch_size=8, **{"pin_memory": False})
move_kw = {"non_blocking": False}

model = nn.Linear(4, 2).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(2):
    for xb, yb in train_loader:
        xb = xb.to(device, torch.float32, False)
        yb = yb.to(device, **move_kw)
        loss = nn.functional.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("epoch", epoch, round(loss.item(), 5))

model.eval()
with torch.no_grad():
    hits = 0
    for xb, yb in test_loader:
        xb = xb.to(device=device, copy=True)
        yb = yb.to(*(device,))
        hits += (model(xb).argmax(1) == yb).sum().item()
print("hits", hits)
