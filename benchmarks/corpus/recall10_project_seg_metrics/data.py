"""Synthetic blobs and their masks."""
import torch
from torch.utils.data import DataLoader, TensorDataset


def make_loader(n, batch_size, shuffle, seed):
    g = torch.Generator().manual_seed(seed)
    images = torch.rand(n, 1, 16, 16, generator=g)
    masks = (images > 0.6).float()
    return DataLoader(TensorDataset(images, masks), batch_size=batch_size, shuffle=shuffle, pin_memory=torch.cuda.is_available())
