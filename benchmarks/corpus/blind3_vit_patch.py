# corpus: runnable
"""A tiny Vision Transformer on random 16x16 images: patch embedding with a strided conv,
class token, learned position embedding, pre-norm blocks with a hand-written GELU MLP."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def gelu(x):
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))  # paef: expect operator-fusion


class PatchEmbed(nn.Module):
    def __init__(self, img=16, patch=4, ch=3, dim=32):
        super().__init__()
        self.n = (img // patch) ** 2
        self.proj = nn.Conv2d(ch, dim, kernel_size=patch, stride=patch)

    def forward(self, x):
        return self.proj(x).flatten(2).transpose(1, 2)


class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.fc1, self.fc2 = nn.Linear(dim, 4 * dim), nn.Linear(4 * dim, dim)

    def forward(self, x):
        h = self.ln1(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.fc2(gelu(self.fc1(self.ln2(x))))


class ViT(nn.Module):
    def __init__(self, n_classes=4, dim=32, depth=2, heads=4):
        super().__init__()
        self.patch = PatchEmbed(dim=dim)
        self.cls = nn.Parameter(torch.zeros(1, 1, dim))
        self.pos = nn.Parameter(torch.randn(1, self.patch.n + 1, dim) * 0.02)
        self.blocks = nn.Sequential(*[Block(dim, heads) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, n_classes)

    def forward(self, x):
        x = self.patch(x)
        cls = self.cls.expand(x.shape[0], -1, -1)
        x = torch.cat([cls, x], dim=1) + self.pos
        x = self.norm(self.blocks(x))
        return self.head(x[:, 0])


images = torch.randn(256, 3, 16, 16)
labels = (images[:, 0].mean((1, 2)) > 0).long() + 2 * (images[:, 1].mean((1, 2)) > 0).long()
train_loader = DataLoader(TensorDataset(images[:192], labels[:192]), batch_size=32, shuffle=True)  # paef: ok pageable-transfer
val_loader = DataLoader(TensorDataset(images[192:], labels[192:]), batch_size=64)  # paef: ok pageable-transfer

model = ViT().to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.05)
criterion = nn.CrossEntropyLoss(label_smoothing=0.1)

for epoch in range(3):
    model.train()
    running_loss = 0.0
    for step, (x, y) in enumerate(train_loader):
        x, y = x.to(device), y.to(device)
        optimizer.zero_grad(set_to_none=True)
        loss = criterion(model(x), y)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        running_loss += loss.item()  # paef: expect host-sync
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for x, y in val_loader:
            x, y = x.to(device), y.to(device)
            correct += (model(x).argmax(1) == y).sum().item()  # paef: ok host-sync
            total += y.numel()
    print(f"epoch {epoch} loss {running_loss / len(train_loader):.4f} acc {correct / total:.3f}")
