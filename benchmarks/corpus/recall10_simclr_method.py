# corpus: runnable
"""SimCLR in the style of sthalles/SimCLR: the InfoNCE loss is a method of the trainer, called once
per batch, and it builds its label and mask tensors on the CPU before moving them."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class SimCLR:
    def __init__(self, model, optimizer, batch_size, n_views=2, temperature=0.1):
        self.model = model
        self.optimizer = optimizer
        self.batch_size = batch_size
        self.n_views = n_views
        self.temperature = temperature
        self.device = device

    def info_nce_loss(self, features):
        n = features.shape[0] // self.n_views
        labels = torch.cat([torch.arange(n, device=self.device) for i in range(self.n_views)], dim=0)
        labels = (labels.unsqueeze(0) == labels.unsqueeze(1)).float()
        features = F.normalize(features, dim=1)
        similarity = features @ features.T
        mask = torch.eye(labels.shape[0], dtype=torch.bool).to(self.device)  # paef: expect cpu-then-move; ok redundant-tensor
        labels = labels[~mask].view(labels.shape[0], -1)
        similarity = similarity[~mask].view(similarity.shape[0], -1)
        positives = similarity[labels.bool()].view(labels.shape[0], -1)
        negatives = similarity[~labels.bool()].view(similarity.shape[0], -1)
        logits = torch.cat([positives, negatives], dim=1) / self.temperature
        targets = torch.zeros(logits.shape[0], dtype=torch.long, device=self.device)
        return logits, targets

    def augment(self, x):
        return x + 0.1 * torch.randn_like(x)

    def train(self, loader, epochs):
        criterion = nn.CrossEntropyLoss()
        for epoch in range(epochs):
            total = torch.zeros((), device=self.device)
            for (x,) in loader:
                x = x.to(self.device, non_blocking=True)
                views = torch.cat([self.augment(x), self.augment(x)], dim=0)
                logits, targets = self.info_nce_loss(self.model(views))
                loss = criterion(logits, targets)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                total += loss.detach()
            print(f"epoch {epoch} loss {total.item() / len(loader):.4f}")


data = torch.randn(256, 20)
loader = DataLoader(TensorDataset(data), batch_size=32, shuffle=True, drop_last=True, pin_memory=torch.cuda.is_available())
model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 16)).to(device)
SimCLR(model, torch.optim.Adam(model.parameters(), lr=1e-3), batch_size=32).train(loader, 2)
