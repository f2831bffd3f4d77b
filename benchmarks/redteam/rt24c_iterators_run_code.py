# corpus: runnable
# Red team 24: the loop's own iterator runs program code on every iteration: a generator pipeline
# that rebinds a global or changes an array between two `yield`s, a Dataset whose `__getitem__`
# counts its calls, an iterator class whose `__next__` changes a NumPy array
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

torch.set_num_threads(1)
torch.manual_seed(24)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(3, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
produced = 0
stats = np.ones(3)


def stream(n):
    global produced
    for k in range(n):
        produced += 1
        stats[k % 3] += 1.0
        yield torch.randn(4, 3)


log = []
for xb in stream(3):
    count = torch.tensor(float(produced), device=device)
    norm = np.sqrt(stats)
    x = xb.to(device) * torch.as_tensor(norm, dtype=torch.float32, device=device)
    loss = model(x).pow(2).mean() * count
    opt.zero_grad()
    loss.backward()
    opt.step()
    log.append(round(loss.item(), 5))
print("generator", log, produced)


class Counting(Dataset):
    def __init__(self) -> None:
        self.calls = 0
        self.seen = np.zeros(2)
        self.data = torch.randn(6, 3)

    def __len__(self) -> int:
        return 6

    def __getitem__(self, i):
        self.calls += 1
        self.seen += 1.0
        return self.data[i]


ds = Counting()
loader = DataLoader(ds, batch_size=2)
log = []
for xb in loader:
    calls = torch.tensor([ds.calls], dtype=torch.float32, device=device)
    seen = np.exp(ds.seen)
    loss = model(xb.to(device)).pow(2).mean() + calls.sum() + float(seen.sum())
    opt.zero_grad()
    loss.backward()
    opt.step()
    log.append(round(loss.item(), 4))
print("dataset", log)


class Windows:
    def __init__(self, n: int) -> None:
        self.n = n
        self.k = 0
        self.offset = np.zeros(3)

    def __iter__(self):
        return self

    def __next__(self):
        if self.k >= self.n:
            raise StopIteration
        self.k += 1
        self.offset += 0.5
        return torch.randn(2, 3)


win = Windows(3)
log = []
for xb in win:
    shift = np.tanh(win.offset)
    x = xb.to(device) + torch.as_tensor(shift, dtype=torch.float32, device=device)
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    log.append(round(loss.item(), 5))
print("iterator", log)
