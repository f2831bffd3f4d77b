# corpus: runnable
# Red team 39, wave 2 (blind): the DataLoader and its sampler are built again every epoch (curriculum: the
# subset grows), over a dataset whose samples are views into one NumPy-backed tensor (`from_numpy`) that
# the script augments in place between epochs. The batch is moved with `.to(device)` and the host batch is
# scaled in place after the move for a host-side statistic.
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset, SubsetRandomSampler

torch.manual_seed(34)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"
rng = np.random.default_rng(34)
raw = rng.standard_normal((40, 3)).astype(np.float32)


class ArrayDataset(Dataset):
    def __init__(self, arr: np.ndarray) -> None:
        self.x = torch.from_numpy(arr)
        self.y = torch.from_numpy((arr.sum(1) > 0).astype(np.int64))

    def __len__(self) -> int:
        return len(self.x)

    def __getitem__(self, i: int):
        return self.x[i], self.y[i]


ds = ArrayDataset(raw)
model = nn.Linear(3, 2).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(3):
    g = torch.Generator().manual_seed(100 + epoch)
    sampler = SubsetRandomSampler(list(range(16 + 8 * epoch)), generator=g)
    loader = DataLoader(ds, batch_size=8, sampler=sampler)
    host_stat = 0.0
    for xb, yb in loader:
        xb_dev = xb.to(device)
        yb_dev = yb.to(device)
        xb.mul_(0.0)
        host_stat += float(xb.abs().sum())
        loss = nn.functional.cross_entropy(model(xb_dev), yb_dev)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(epoch, f"{loss.item():.12f}")
    raw *= 1.1
    print("epoch", epoch, host_stat, f"{float(ds.x.abs().sum()):.6f}")
