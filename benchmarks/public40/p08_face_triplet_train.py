# Public check 40, p08: face embeddings trained with a triplet loss (anchor / positive / negative images).
# Source: https://github.com/Mersalies/face_project train.py @ 6580401e (+ loss.py @ 68128df2, TripletLoss).
# Changes to make it run on the CPU in seconds:
# - trip_data.TripletFaceDataset (face crops from processed_dataset/train/) and model.StrongerFaceModel (not
#   read) -> stand-ins: 24 seeded triplets of 3x32x32 images (positive = anchor + noise), returned per index
#   with the source's `transform` applied; a small conv net with a 128-d L2-normalised embedding.
# - torchvision.transforms (Resize((160, 160)) -> identity at 32x32, ToTensor, Normalize), tqdm (the bar:
#   set_postfix does nothing) and matplotlib (no-op) -> stand-ins.
# - EPOCHS 20 -> 2 (so the every-5-epochs checkpoint does not run); BATCH_SIZE 16 -> 8; the final
#   torch.save and the plot file go to a temporary folder; the seed; a checksum print at the end.
# `num_workers=2` is kept. The TripletLoss class and the script's lines are the source's.
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


# ---- stand-ins: torchvision.transforms, tqdm, matplotlib, trip_data, model ----
class transforms:
    class Compose:
        def __init__(self, ts):
            self.ts = ts

        def __call__(self, x):
            for t in self.ts:
                x = t(x)
            return x

    class Resize:
        def __init__(self, size):
            pass

        def __call__(self, x):
            return x

    class ToTensor:
        def __call__(self, x):
            return x

    class Normalize:
        def __init__(self, mean, std):
            self.mean = torch.tensor(mean)[:, None, None]
            self.std = torch.tensor(std)[:, None, None]

        def __call__(self, x):
            return (x - self.mean) / self.std


class tqdm:
    def __init__(self, iterable, total=None, desc=None):
        self.iterable = iterable

    def __iter__(self):
        return iter(self.iterable)

    def set_postfix(self, **kwargs):
        pass


class _NoPlot:
    def __getattr__(self, name):
        return lambda *a, **k: None


plt = _NoPlot()


class TripletFaceDataset(Dataset):
    def __init__(self, root_dir, transform=None):
        g = torch.Generator().manual_seed(0)
        self.anchors = torch.rand(24, 3, 32, 32, generator=g)
        self.positives = (self.anchors + 0.05 * torch.randn(24, 3, 32, 32, generator=g)).clamp(0, 1)
        self.negatives = torch.rand(24, 3, 32, 32, generator=g)
        self.transform = transform

    def __len__(self):
        return len(self.anchors)

    def __getitem__(self, i):
        return (self.transform(self.anchors[i]), self.transform(self.positives[i]),
                self.transform(self.negatives[i]))


class StrongerFaceModel(nn.Module):
    def __init__(self, embedding_size=128):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
                                      nn.MaxPool2d(2), nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(),
                                      nn.AdaptiveAvgPool2d(1))
        self.fc = nn.Linear(32, embedding_size)

    def forward(self, x):
        return F.normalize(self.fc(self.features(x).flatten(1)), dim=1)


torch.manual_seed(0)
os.chdir(tempfile.mkdtemp())


# ---- source: loss.py ----
class TripletLoss(nn.Module):
    def __init__(self, margin=0.5):
        super(TripletLoss, self).__init__()
        self.margin = margin

    def forward(self, anchor, positive, negative):
        distance_positive = F.pairwise_distance(anchor, positive, p=2)
        distance_negative = F.pairwise_distance(anchor, negative, p=2)

        losses = F.relu(distance_positive - distance_negative + self.margin)
        return losses.mean()


# ---- source: train.py ----
# === Параметры ===
BATCH_SIZE = 8
EPOCHS = 2
MARGIN = 1.0
LEARNING_RATE = 1e-3
DATASET_DIR = 'processed_dataset/train/'
MODEL_SAVE_PATH = 'face_model.pth'

DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")

# === Аугментации ===
transform = transforms.Compose([
    transforms.Resize((160, 160)),
    transforms.ToTensor(),
    transforms.Normalize(mean=[0.5, 0.5, 0.5], std=[0.5, 0.5, 0.5])
])

# === Датасет и DataLoader ===
dataset = TripletFaceDataset(root_dir=DATASET_DIR, transform=transform)
dataloader = DataLoader(dataset, batch_size=BATCH_SIZE, shuffle=True, num_workers=2)

# === Модель, функция потерь, оптимизатор ===
model = StrongerFaceModel(embedding_size=128).to(DEVICE)
criterion = TripletLoss(margin=MARGIN)
optimizer = torch.optim.Adam(model.parameters(), lr=LEARNING_RATE)

# === Тренировка ===
loss_history = []

for epoch in range(1, EPOCHS + 1):
    model.train()
    running_loss = 0.0
    loop = tqdm(enumerate(dataloader), total=len(dataloader), desc=f"Epoch {epoch}/{EPOCHS}")

    for i, (anchor, positive, negative) in loop:
        anchor, positive, negative = anchor.to(DEVICE), positive.to(DEVICE), negative.to(DEVICE)

        optimizer.zero_grad()
        anchor_out = model(anchor)
        positive_out = model(positive)
        negative_out = model(negative)

        loss = criterion(anchor_out, positive_out, negative_out)
        loss.backward()
        optimizer.step()

        running_loss += loss.item()
        loop.set_postfix(loss=loss.item())

    avg_loss = running_loss / len(dataloader)
    loss_history.append(avg_loss)
    print(f"[Epoch {epoch}] Average Loss: {avg_loss:.4f}")

    # Сохраняем каждые 5 эпох
    if epoch % 5 == 0:
        torch.save(model.state_dict(), f"face_model_epoch_{epoch}.pth")

# === Финальное сохранение ===
torch.save(model.state_dict(), MODEL_SAVE_PATH)
print(f"Тренировка завершена. Модель сохранена в {MODEL_SAVE_PATH}")

# === Визуализация потерь ===
plt.figure(figsize=(10, 5))
plt.plot(range(1, EPOCHS + 1), loss_history, marker='o')
plt.title("Training Loss per Epoch")
plt.xlabel("Epoch")
plt.ylabel("Loss")
plt.grid(True)
plt.savefig("training_loss.png")
plt.show()

print(f"checksum {sum(float(p.detach().double().sum()) for p in model.parameters()):.6f}")
