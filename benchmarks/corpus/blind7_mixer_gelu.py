# corpus: runnable
"""MLP-Mixer on 8x8 patches of synthetic images, written the way many re-implementations are:
a hand-written tanh GELU and a hand-written LayerNorm inside each block, patches cut with
`unfold` in `forward`."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def gelu(x):
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))  # paef: expect operator-fusion


class LayerNorm(nn.Module):
    def __init__(self, d, eps=1e-5):
        super().__init__()
        self.g = nn.Parameter(torch.ones(d))
        self.b = nn.Parameter(torch.zeros(d))
        self.eps = eps

    def forward(self, x):
        mu = x.mean(-1, keepdim=True)
        var = ((x - mu) ** 2).mean(-1, keepdim=True)
        return self.g * (x - mu) / torch.sqrt(var + self.eps) + self.b  # paef: expect operator-fusion


class MixerBlock(nn.Module):
    def __init__(self, tokens, d):
        super().__init__()
        self.n1, self.n2 = LayerNorm(d), LayerNorm(d)
        self.tok1, self.tok2 = nn.Linear(tokens, 2 * tokens), nn.Linear(2 * tokens, tokens)
        self.ch1, self.ch2 = nn.Linear(d, 2 * d), nn.Linear(2 * d, d)

    def forward(self, x):
        y = self.n1(x).transpose(1, 2)
        x = x + self.tok2(gelu(self.tok1(y))).transpose(1, 2)
        return x + self.ch2(gelu(self.ch1(self.n2(x))))


class Mixer(nn.Module):
    def __init__(self, d=32, classes=3):
        super().__init__()
        self.embed = nn.Linear(64, d)
        self.blocks = nn.Sequential(MixerBlock(16, d), MixerBlock(16, d))
        self.head = nn.Linear(d, classes)

    def forward(self, img):
        patches = F.unfold(img, 8, stride=8).transpose(1, 2)
        return self.head(self.blocks(self.embed(patches)).mean(1))


imgs = torch.randn(600, 1, 32, 32)
labels = torch.randint(0, 3, (600,))
imgs[labels == 1, :, :16] += 1.0
imgs[labels == 2, :, :, :16] -= 1.0
imgs, labels = imgs.to(device), labels.to(device)
model = Mixer().to(device)
opt = torch.optim.AdamW(model.parameters(), lr=2e-3)
for epoch in range(4):
    perm = torch.randperm(500, device=device)
    for i in range(0, 500, 50):
        idx = perm[i : i + 50]
        loss = F.cross_entropy(model(imgs[idx]), labels[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        acc = (model(imgs[500:]).argmax(1) == labels[500:]).float().mean()
    print(f"epoch {epoch} loss {loss.item():.4f} val acc {acc.item():.3f}")
