# corpus: runnable
"""Siamese network with the contrastive loss of Hadsell et al.: a pair Dataset that draws a
positive or negative partner from per-class index lists, Euclidean distances written out
by hand, and threshold accuracy on held-out pairs."""
import random

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

n_classes = 5
protos = torch.randn(n_classes, 12) * 1.5
labels = torch.randint(0, n_classes, (500,))
feats = protos[labels] + torch.randn(500, 12)


class PairDataset(Dataset):
    def __init__(self, x, y):
        self.x, self.y = x, y
        self.by_class = {c: (y == c).nonzero().flatten().tolist() for c in range(n_classes)}

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        c = int(self.y[i])
        if random.random() < 0.5:
            j, same = random.choice(self.by_class[c]), 1.0
        else:
            other = random.choice([k for k in range(n_classes) if k != c])
            j, same = random.choice(self.by_class[other]), 0.0
        return self.x[i], self.x[j], torch.tensor(same)


class Embed(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 8))

    def forward(self, a, b):
        return self.net(a), self.net(b)


def contrastive_loss(e1, e2, same, margin=2.0):
    d = torch.sqrt(torch.sum((e1 - e2) ** 2, dim=1) + 1e-9)  # paef: refuse operator-fusion
    return torch.mean(same * d.pow(2) + (1 - same) * torch.clamp(margin - d, min=0.0).pow(2))


train_loader = DataLoader(PairDataset(feats[:400], labels[:400]), batch_size=32, shuffle=True)  # paef: ok sync-dataloader; ok pageable-transfer
test_set = PairDataset(feats[400:], labels[400:])
model = Embed().to(device)
opt = torch.optim.Adam(model.parameters(), lr=5e-3)

for epoch in range(4):
    losses = []
    for a, b, same in train_loader:
        a, b, same = a.to(device), b.to(device), same.to(device)
        e1, e2 = model(a, b)
        loss = contrastive_loss(e1, e2, same)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.detach())
    print(f"epoch {epoch} loss {torch.stack(losses).mean().item():.4f}")

random.seed(1)
pairs = [test_set[i] for i in range(len(test_set))]
a = torch.stack([p[0] for p in pairs]).to(device)
b = torch.stack([p[1] for p in pairs]).to(device)
same = torch.stack([p[2] for p in pairs]).to(device)
with torch.no_grad():
    e1, e2 = model(a, b)
    d = torch.sqrt(torch.sum((e1 - e2) ** 2, dim=1) + 1e-9)  # paef: refuse operator-fusion
acc = ((d < 1.0).float() == same).float().mean().item()
print(f"pair accuracy at threshold 1.0: {acc:.3f}")
