# corpus: runnable
"""A bag-of-embeddings text classifier with a metrics object whose update() is called per batch:
one meter reads counts back to the host every time, the other keeps them on the device."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class AccuracyMeter:
    def __init__(self):
        self.correct = 0
        self.total = 0

    def update(self, logits, target):
        self.correct += (logits.argmax(1) == target).sum().item()  # paef: expect host-sync
        self.total += target.size(0)

    def compute(self):
        return self.correct / max(self.total, 1)


class DeviceAccuracy:
    def __init__(self):
        self.correct = torch.zeros((), dtype=torch.long, device=device)
        self.total = 0

    def update(self, logits, target):
        self.correct += (logits.argmax(1) == target).sum()
        self.total += target.size(0)

    def compute(self):
        return self.correct.item() / max(self.total, 1)


class BagClassifier(nn.Module):
    def __init__(self, vocab=100, dim=16, n_classes=4):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim)
        self.fc = nn.Linear(dim, n_classes)

    def forward(self, tokens):
        return self.fc(self.emb(tokens))


tokens = torch.randint(0, 100, (320, 10))
labels = tokens[:, 0] % 4
train = DataLoader(TensorDataset(tokens[:256], labels[:256]), batch_size=32, shuffle=True, pin_memory=torch.cuda.is_available())
test = DataLoader(TensorDataset(tokens[256:], labels[256:]), batch_size=32, pin_memory=torch.cuda.is_available())
model = BagClassifier().to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(3):
    train_acc = AccuracyMeter()
    model.train()
    for x, y in train:
        x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
        logits = model(x)
        loss = nn.functional.cross_entropy(logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        train_acc.update(logits, y)
    test_acc = DeviceAccuracy()
    model.eval()
    with torch.no_grad():
        for x, y in test:
            x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
            test_acc.update(model(x), y)
    print(f"epoch {epoch} train {train_acc.compute():.3f} test {test_acc.compute():.3f}")
