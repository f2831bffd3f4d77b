"""Small image classifier: each sample is augmented in NumPy in `__getitem__` (random shift,
flip, noise), and the DataLoader loads in the training process."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class AugmentedDigits(Dataset):
    def __init__(self, n, seed=0):
        rng = np.random.default_rng(seed)
        self.images = rng.random((n, 28, 28), dtype=np.float32)
        self.labels = rng.integers(0, 10, n)
        self.rng = np.random.default_rng(seed + 1)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        img = self.images[i]
        dx, dy = self.rng.integers(-2, 3, 2)
        img = np.roll(np.roll(img, dx, axis=0), dy, axis=1)
        if self.rng.random() < 0.5:
            img = img[:, ::-1]
        img = np.clip(img + self.rng.normal(0.0, 0.05, img.shape), 0.0, 1.0).astype(np.float32)
        return torch.from_numpy(img).unsqueeze(0), int(self.labels[i])


def main():
    torch.manual_seed(0)
    loader = DataLoader(AugmentedDigits(3072), batch_size=128, shuffle=True, num_workers=0)
    model = nn.Sequential(nn.Flatten(), nn.Linear(784, 32), nn.ReLU(), nn.Linear(32, 10))
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for epoch in range(2):
        for xb, yb in loader:
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
    print(f"loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
