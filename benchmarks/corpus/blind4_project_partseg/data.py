import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class PartDataset(Dataset):
    """Two shape classes; the part label of a point depends on its height and the shape."""

    N_SHAPES, N_PARTS, N_POINTS = 2, 3, 64

    def __init__(self, n, seed):
        rng = np.random.RandomState(seed)
        self.shape_cls = rng.randint(0, self.N_SHAPES, n)
        self.points = rng.randn(n, self.N_POINTS, 3).astype(np.float32)
        self.points[..., 2] += self.shape_cls[:, None]
        z = self.points[..., 2] - self.shape_cls[:, None]
        self.seg = np.digitize(z, [-0.5, 0.5]).astype(np.int64)

    def __len__(self):
        return len(self.shape_cls)

    def __getitem__(self, i):
        return torch.from_numpy(self.points[i]), int(self.shape_cls[i]), torch.from_numpy(self.seg[i])


def build_loader(dataset, batch_size, train):
    return DataLoader(dataset, batch_size=batch_size, shuffle=train, drop_last=train)  # paef: ok pageable-transfer; ok sync-dataloader
