import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class BlobDataset(Dataset):
    """Images with one bright disc; the mask is the disc. Augmentation flips and adds noise."""

    def __init__(self, n, seed, augment):
        rng = np.random.RandomState(seed)
        self.centers = rng.randint(3, 13, (n, 2))
        self.radii = rng.randint(2, 5, n)
        self.augment = augment
        self.rng = np.random.RandomState(seed + 100)

    def __len__(self):
        return len(self.radii)

    def __getitem__(self, i):
        yy, xx = np.mgrid[0:16, 0:16]  # paef: ok cpu-function
        cy, cx = self.centers[i]
        mask = ((yy - cy) ** 2 + (xx - cx) ** 2 <= self.radii[i] ** 2).astype(np.float32)
        img = mask * 0.8 + 0.2
        if self.augment:
            if self.rng.rand() < 0.5:
                img, mask = img[:, ::-1], mask[:, ::-1]
            img = img + self.rng.normal(0, 0.1, img.shape)
        return torch.from_numpy(np.ascontiguousarray(img, dtype=np.float32))[None], torch.from_numpy(np.ascontiguousarray(mask))[None]


def make_loader(dataset, batch_size, shuffle):
    return DataLoader(dataset, batch_size=batch_size, shuffle=shuffle)  # paef: ok pageable-transfer; refuse sync-dataloader
