# corpus: runnable
"""An image Dataset whose __getitem__ augments with NumPy, loaded with the default DataLoader settings."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
np.random.seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

MEAN = np.array([0.49, 0.48, 0.45], dtype=np.float32).reshape(3, 1, 1)
STD = np.array([0.25, 0.24, 0.26], dtype=np.float32).reshape(3, 1, 1)


class AugmentedImages(Dataset):
    def __init__(self, images, labels, train=True, crop=12, pad=2):
        self.images = images
        self.labels = labels
        self.train = train
        self.crop = crop
        self.pad = pad

    def __len__(self):
        return len(self.images)

    def __getitem__(self, idx):
        img = self.images[idx].astype(np.float32) / 255.0
        if self.train:
            img = np.pad(img, ((0, 0), (self.pad, self.pad), (self.pad, self.pad)), mode="reflect")
            top = np.random.randint(0, 2 * self.pad + 1)
            left = np.random.randint(0, 2 * self.pad + 1)
            img = img[:, top : top + self.crop, left : left + self.crop]
            if np.random.rand() < 0.5:
                img = img[:, :, ::-1]
        img = (img - MEAN) / STD
        return torch.from_numpy(np.ascontiguousarray(img)), int(self.labels[idx])


rng = np.random.RandomState(0)
raw_images = rng.randint(0, 256, size=(160, 3, 12, 12)).astype(np.uint8)
raw_labels = rng.randint(0, 4, size=160)
train_set = AugmentedImages(raw_images[:128], raw_labels[:128], train=True)
test_set = AugmentedImages(raw_images[128:], raw_labels[128:], train=False)
train_loader = DataLoader(train_set, batch_size=16, shuffle=True)  # paef: expect sync-dataloader; ok pageable-transfer
test_loader = DataLoader(test_set, batch_size=32, shuffle=False)  # paef: ok sync-dataloader; ok pageable-transfer

model = nn.Sequential(
    nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 4)
).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=5e-4)

for epoch in range(2):
    model.train()
    for inputs, targets in train_loader:
        inputs, targets = inputs.to(device), targets.to(device)  # paef: ok pageable-transfer
        optimizer.zero_grad()
        loss = F.cross_entropy(model(inputs), targets)
        loss.backward()
        optimizer.step()
    model.eval()
    correct = 0
    total = 0
    with torch.no_grad():
        for inputs, targets in test_loader:
            inputs, targets = inputs.to(device), targets.to(device)  # paef: ok pageable-transfer
            outputs = model(inputs)
            _, predicted = outputs.max(1)
            total += targets.size(0)
            correct += predicted.eq(targets).sum().item()  # paef: ok host-sync
    print(f"epoch {epoch} loss {loss.item():.4f} test acc {100.0 * correct / total:.2f}")
