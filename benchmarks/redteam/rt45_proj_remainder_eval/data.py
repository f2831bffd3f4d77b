"""A regression set of 9 rows served by a DataLoader with batch_size=4 and drop_last=False: the last batch
holds ONE row."""
import torch
from torch.utils.data import DataLoader, TensorDataset


def make_loader(seed=0, batch_size=4):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(9, 3, generator=g)
    y = (x @ torch.tensor([0.5, -1.0, 2.0]) + 0.1).unsqueeze(1)
    return DataLoader(TensorDataset(x, y), batch_size=batch_size, shuffle=False, drop_last=False)
