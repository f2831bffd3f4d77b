# corpus: runnable
"""A Dataset doing per-sample NumPy augmentation, loaded in the main process."""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

np.random.seed(0)
torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"


class NoisyImages(Dataset):
    def __init__(self, n):
        rng = np.random.RandomState(0)
        self.images = rng.rand(n, 8, 8).astype(np.float32)
        self.labels = rng.randint(0, 3, size=n)

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        img = self.images[i]
        if i % 2:
            img = np.fliplr(img)
        img = np.clip(img + 0.05 * np.sin(np.arange(64).reshape(8, 8)), 0, 1)  # paef: expect cpu-function
        img = ((img - img.mean()) / (img.std() + 1e-6)).astype(np.float32)
        return torch.from_numpy(np.ascontiguousarray(img)).unsqueeze(0), int(self.labels[i])


loader = DataLoader(NoisyImages(256), batch_size=32, shuffle=False, num_workers=0, pin_memory=True)  # paef: expect sync-dataloader
model = nn.Sequential(nn.Conv2d(1, 4, 3), nn.ReLU(), nn.Flatten(), nn.Linear(144, 3)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
for epoch in range(2):
    for img, lab in loader:
        img, lab = img.to(device, non_blocking=True), lab.to(device, non_blocking=True)
        loss = nn.functional.cross_entropy(model(img), lab)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
