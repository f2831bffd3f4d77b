"""Made-up 1x12x12 images and a multi-crop dataset: two global 8x8 crops and four local 4x4 crops per
image, each sample's crops reproducible from (epoch, index) by reseeding torch in __getitem__."""
import torch
from torch.utils.data import Dataset

GLOBAL, LOCAL, N_GLOBAL, N_LOCAL = 8, 4, 2, 4


def make_images(n, classes=3, side=12):
    protos = torch.randn(classes, 1, side, side)
    ys = torch.randint(0, classes, (n,))
    return protos[ys] + 0.7 * torch.randn(n, 1, side, side), ys


def random_crop(img, size):
    side = img.shape[-1]
    top = int(torch.randint(0, side - size + 1, (1,)))
    left = int(torch.randint(0, side - size + 1, (1,)))
    crop = img[:, top:top + size, left:left + size]
    if torch.rand(1).item() < 0.5:
        crop = crop.flip(-1)
    return crop


class MultiCrop(Dataset):
    def __init__(self, images):
        self.images = images
        self.epoch = 0

    def __len__(self):
        return len(self.images)

    def __getitem__(self, idx):
        torch.manual_seed(self.epoch * 10_000 + idx)
        img = self.images[idx]
        crops = [random_crop(img, GLOBAL) for _ in range(N_GLOBAL)]
        crops += [random_crop(img, LOCAL) for _ in range(N_LOCAL)]
        return crops


def collate_crops(samples):
    """One batch per crop position: global crops first, then local ones (different sizes: never one tensor)."""
    return [torch.stack([s[i] for s in samples]) for i in range(N_GLOBAL + N_LOCAL)]
