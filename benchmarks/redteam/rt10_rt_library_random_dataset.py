# corpus: runnable
# A jittering dataset reached through library wrappers (`Subset`, `random_split`, `ConcatDataset`)
# and a `DataLoader`'s `.dataset`: indexing draws random numbers and counts reads. Each epoch's
# probe sample is read anew; read once before the loop, the random stream and counts differ.
import torch
from torch.utils.data import ConcatDataset, DataLoader, Dataset, Subset, random_split

torch.manual_seed(0)
torch.set_num_threads(1)


class Jitter(Dataset):
    reads = 0

    def __init__(self, n):
        self.base = torch.arange(n * 2, dtype=torch.float32).view(n, 2)

    def __len__(self):
        return self.base.shape[0]

    def __getitem__(self, i):
        Jitter.reads += 1
        return self.base[i] + 0.1 * torch.randn(2)


sub = Subset(Jitter(6), [0, 2, 4])
train_part, _ = random_split(Jitter(6), [4, 2], generator=torch.Generator().manual_seed(0))
both = ConcatDataset([Jitter(3), Jitter(3)])
loader = DataLoader(Jitter(4), batch_size=2)

rows = []
for epoch in range(3):
    a = torch.stack([sub[0]])
    b = torch.tensor(train_part[1].tolist())
    c = torch.as_tensor(both[4])
    d = torch.stack([loader.dataset[1]])
    rows.append([round(t.sum().item(), 4) for t in (a, b, c, d)])
print(rows, Jitter.reads)
