# corpus: runnable
"""Barlow Twins on synthetic images: two augmented views per image (random crop-and-resize and
noise applied image by image in a helper), a projector with BatchNorm, and the cross-correlation
loss (on-diagonal to one, off-diagonal to zero) with the off_diagonal() helper of the official
repository; a linear probe on frozen features evaluates the representation."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
LAMBDA, PROJ = 5e-3, 64


def off_diagonal(x):
    n, m = x.shape
    return x.flatten()[:-1].view(n - 1, n + 1)[:, 1:].flatten()


def random_view(img):
    i, j = torch.randint(0, 5, (2,)).tolist()  # paef: ok host-sync
    crop = img[:, i : i + 12, j : j + 12]
    crop = F.interpolate(crop.unsqueeze(0), size=16, mode="bilinear", align_corners=False).squeeze(0)
    if torch.rand(1).item() < 0.5:  # paef: ok host-sync
        crop = crop.flip(-1)
    return crop + 0.05 * torch.randn_like(crop)


class BarlowTwins(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(1, 16, 3, 2, 1), nn.ReLU(), nn.Conv2d(16, 32, 3, 2, 1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.projector = nn.Sequential(nn.Linear(32, PROJ), nn.BatchNorm1d(PROJ), nn.ReLU(), nn.Linear(PROJ, PROJ))
        self.bn = nn.BatchNorm1d(PROJ, affine=False)

    def forward(self, y1, y2):
        z1, z2 = self.projector(self.backbone(y1)), self.projector(self.backbone(y2))
        c = self.bn(z1).T @ self.bn(z2) / z1.shape[0]
        on_diag = torch.diagonal(c).add_(-1).pow_(2).sum()
        off_diag = off_diagonal(c).pow_(2).sum()
        return on_diag + LAMBDA * off_diag


labels = torch.randint(0, 4, (384,))
yy, xx = torch.meshgrid(torch.linspace(-1, 1, 16), torch.linspace(-1, 1, 16), indexing="ij")
shapes = torch.stack([xx.abs() < 0.5, yy.abs() < 0.5, (xx**2 + yy**2) < 0.5, (xx + yy).abs() < 0.3]).float()
images = (shapes[labels] + 0.2 * torch.randn(384, 16, 16)).unsqueeze(1)

model = BarlowTwins().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(3):
    perm = torch.randperm(384)
    for i in range(0, 384, 64):
        batch = images[perm[i : i + 64]]
        y1 = torch.stack([random_view(img) for img in batch]).to(device)  # paef: refuse list-to-tensor; ok elementwise-loop; ok cpu-function
        y2 = torch.stack([random_view(img) for img in batch]).to(device)  # paef: refuse list-to-tensor; ok elementwise-loop; ok cpu-function
        loss = model(y1, y2)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} loss {loss.item():.3f}")

model.eval()
with torch.no_grad():
    feats = model.backbone(images.to(device))
probe = nn.Linear(32, 4).to(device)
opt = torch.optim.Adam(probe.parameters(), lr=1e-2)
y = labels.to(device)
for _ in range(200):
    loss = F.cross_entropy(probe(feats[:256]), y[:256])
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"probe acc {(probe(feats[256:]).argmax(1) == y[256:]).float().mean().item():.3f}")
