# corpus: runnable
"""A ViT-style classifier trained through a TrainEval object, as pytorch/examples' vision_transformer
does: the loaders are constructor arguments stored on `self` and iterated in the methods."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class PatchNet(nn.Module):
    def __init__(self, patch=4, dim=32, n_classes=10):
        super().__init__()
        self.embed = nn.Conv2d(3, dim, patch, stride=patch)
        layer = nn.TransformerEncoderLayer(dim, 4, 64, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, 1)
        self.head = nn.Linear(dim, n_classes)

    def forward(self, x):
        x = self.embed(x).flatten(2).transpose(1, 2)
        return self.head(self.encoder(x).mean(1))


class TrainEval:
    def __init__(self, model, train_dataloader, val_dataloader, optimizer, criterion, epochs):
        self.model = model
        self.train_dataloader = train_dataloader
        self.val_dataloader = val_dataloader
        self.optimizer = optimizer
        self.criterion = criterion
        self.epochs = epochs

    def train_fn(self):
        self.model.train()
        total_loss = 0.0
        for images, labels in self.train_dataloader:
            images, labels = images.to(device), labels.to(device)
            self.optimizer.zero_grad()
            loss = self.criterion(self.model(images), labels)
            loss.backward()
            self.optimizer.step()
            total_loss += loss.item()  # paef: expect host-sync
        return total_loss / len(self.train_dataloader)

    def eval_fn(self):
        self.model.eval()
        correct = 0
        with torch.no_grad():
            for images, labels in self.val_dataloader:
                images, labels = images.to(device), labels.to(device)
                correct += (self.model(images).argmax(1) == labels).sum().item()  # paef: ok host-sync
        return correct / len(self.val_dataloader.dataset)

    def train(self):
        for epoch in range(self.epochs):
            train_loss = self.train_fn()
            val_acc = self.eval_fn()
            print(f"epoch {epoch} loss {train_loss:.4f} acc {val_acc:.3f}")


images = torch.randn(192, 3, 16, 16)
labels = torch.randint(0, 10, (192,))
train_loader = DataLoader(TensorDataset(images[:128], labels[:128]), batch_size=32, shuffle=True)  # paef: ok pageable-transfer
val_loader = DataLoader(TensorDataset(images[128:], labels[128:]), batch_size=32, pin_memory=torch.cuda.is_available())
model = PatchNet().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
TrainEval(model, train_loader, val_loader, optimizer, nn.CrossEntropyLoss(), epochs=2).train()
