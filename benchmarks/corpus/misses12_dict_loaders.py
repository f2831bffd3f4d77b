# corpus: runnable
"""Loaders kept in a dict built by a comprehension (the transfer-learning tutorial's
`dataloaders = {x: DataLoader(...) for x in ["train", "val"]}`) and handed whole to the training
function, which loops over `dataloaders[phase]`; a second experiment reads its loaders from a
plain data-module class whose `train_dataloader()` returns a fresh DataLoader (Lightning's
shape, without Lightning). Near-misses: a dict comprehension whose loaders pin and use workers,
a `val_dataloader()` only evaluated, a dict whose entry is rebound before use."""
import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
np.random.seed(0)
torch.set_num_threads(1)
device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")


class PatchFolder(Dataset):
    """Small uint8 images, scaled, flipped and normalised per sample (ImageFolder + transforms)."""

    def __init__(self, n, train, seed):
        rng = np.random.RandomState(seed)
        self.images = (rng.rand(n, 3, 8, 8) * 255).astype(np.uint8)
        self.labels = rng.randint(0, 2, n)
        self.train = train

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        img = self.images[i].astype(np.float32) / 255.0
        if self.train and i % 2 == 0:
            img = img[:, :, ::-1].copy()
        img = (img - 0.5) / 0.25
        return torch.from_numpy(img), int(self.labels[i])


def make_model():
    return nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 2))


def train_model(model, dataloaders, criterion, optimizer, num_epochs=2):
    for epoch in range(num_epochs):
        for phase in ["train", "val"]:
            model.train() if phase == "train" else model.eval()
            running_loss = torch.zeros((), device=device)
            running_corrects = torch.zeros((), device=device, dtype=torch.long)
            for inputs, labels in dataloaders[phase]:
                inputs = inputs.to(device)
                labels = labels.to(device)
                optimizer.zero_grad()
                with torch.set_grad_enabled(phase == "train"):
                    outputs = model(inputs)
                    preds = outputs.argmax(1)
                    loss = criterion(outputs, labels)
                    if phase == "train":
                        loss.backward()
                        optimizer.step()
                running_loss += loss.detach() * inputs.size(0)
                running_corrects += (preds == labels).sum()
            n = len(dataloaders[phase].dataset)
            print(f"{phase} epoch {epoch} loss {running_loss.item() / n:.4f} acc {running_corrects.item() / n:.4f}")
    return model


image_datasets = {x: PatchFolder(64 if x == "train" else 32, x == "train", 1 if x == "train" else 2) for x in ["train", "val"]}
dataloaders = {x: DataLoader(image_datasets[x], batch_size=8, shuffle=x == "train") for x in ["train", "val"]}  # paef: ok pageable-transfer; expect sync-dataloader
model = make_model().to(device)
train_model(model, dataloaders, nn.CrossEntropyLoss(), optim.SGD(model.parameters(), lr=0.05, momentum=0.9))

# Near-miss: the same dict, loaders already pinned and with workers.
fast = {x: DataLoader(image_datasets[x], batch_size=8, shuffle=x == "train", num_workers=2, pin_memory=True) for x in ["train", "val"]}
model = make_model().to(device)
train_model(model, fast, nn.CrossEntropyLoss(), optim.SGD(model.parameters(), lr=0.05, momentum=0.9), num_epochs=1)


class PatchDataModule:
    """Lightning-style data module, a plain class: each hook returns a fresh DataLoader."""

    def __init__(self, batch_size=8):
        self.batch_size = batch_size

    def setup(self):
        self.train_set = PatchFolder(64, True, 3)
        self.val_set = PatchFolder(32, False, 4)

    def train_dataloader(self):
        return DataLoader(self.train_set, batch_size=self.batch_size, shuffle=True)  # paef: ok pageable-transfer; expect sync-dataloader

    def val_dataloader(self):
        return DataLoader(self.val_set, batch_size=self.batch_size)  # paef: ok pageable-transfer


def fit(model, dm, epochs=2):
    opt = optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(epochs):
        model.train()
        total = torch.zeros((), device=device)
        for x, y in dm.train_dataloader():
            x, y = x.to(device), y.to(device)
            loss = nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.detach()
        model.eval()
        with torch.no_grad():
            correct = sum((model(x.to(device)).argmax(1) == y.to(device)).sum() for x, y in dm.val_dataloader())
        print(f"dm epoch {epoch} loss {total.item():.4f} val correct {int(correct)}")


dm = PatchDataModule()
dm.setup()
fit(make_model().to(device), dm)

# Near-miss: a dict whose train entry is replaced (by a pinned loader with workers) before training.
loaders = {x: DataLoader(image_datasets[x], batch_size=16) for x in ["train", "val"]}
loaders["train"] = DataLoader(image_datasets["train"], batch_size=16, shuffle=True, num_workers=2, pin_memory=True)
model = make_model().to(device)
opt = optim.SGD(model.parameters(), lr=0.05)
for x, y in loaders["train"]:
    x, y = x.to(device), y.to(device)
    loss = nn.functional.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"last run loss {loss.item():.4f}")
