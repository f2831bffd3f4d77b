# corpus: runnable
"""Keypoint localisation by heatmap regression (a tiny stacked-hourglass-style setup): each
synthetic image holds K bright blobs; targets are Gaussian heatmaps rendered per batch by a
helper, the loss is MSE on heatmaps and evaluation reports PCK from soft-argmax coordinates."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
K, H, W, SIGMA = 3, 24, 24, 1.5


def render_images(kps):
    ys = torch.arange(H).float().view(1, 1, H, 1)
    xs = torch.arange(W).float().view(1, 1, 1, W)
    d = (ys - kps[..., 1, None, None]) ** 2 + (xs - kps[..., 0, None, None]) ** 2
    return torch.exp(-d / 4.0).sum(1, keepdim=True) + 0.1 * torch.randn(kps.shape[0], 1, H, W)


def make_heatmaps(kps, sigma=SIGMA):
    ys = torch.arange(H, device=kps.device).float().view(1, 1, H, 1)  # paef: expect redundant-tensor
    xs = torch.arange(W, device=kps.device).float().view(1, 1, 1, W)  # paef: expect redundant-tensor
    d = (ys - kps[..., 1, None, None]) ** 2 + (xs - kps[..., 0, None, None]) ** 2
    return torch.exp(-d / (2 * sigma**2))


def soft_argmax(hm):
    b, k, h, w = hm.shape
    p = hm.flatten(2).softmax(-1).view(b, k, h, w)
    ys = torch.arange(h, device=hm.device, dtype=hm.dtype)  # paef: ok redundant-tensor
    xs = torch.arange(w, device=hm.device, dtype=hm.dtype)  # paef: ok redundant-tensor
    return torch.stack([(p.sum(2) * xs).sum(-1), (p.sum(3) * ys).sum(-1)], -1)


kps = torch.rand(320, K, 2) * torch.tensor([W - 4.0, H - 4.0]) + 2.0
images = render_images(kps)
train_loader = DataLoader(TensorDataset(images[:256], kps[:256]), batch_size=32, shuffle=True)  # paef: ok pageable-transfer
val_loader = DataLoader(TensorDataset(images[256:], kps[256:]), batch_size=48)  # paef: ok pageable-transfer

model = nn.Sequential(
    nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(),
    nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(),
    nn.Conv2d(8, K, 3, padding=1),
).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)

for epoch in range(3):
    model.train()
    running = 0.0
    for img, kp in train_loader:
        img, kp = img.to(device), kp.to(device)
        loss = F.mse_loss(model(img), make_heatmaps(kp))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        running += loss.item() * img.size(0)  # paef: expect host-sync
    model.eval()
    hits = torch.zeros((), device=device)
    with torch.no_grad():
        for img, kp in val_loader:
            img, kp = img.to(device), kp.to(device)
            pred = soft_argmax(model(img) * 20.0)
            hits += ((pred - kp).norm(dim=-1) < 2.0).sum()
    print(f"epoch {epoch} mse {running / 256:.5f} pck@2 {hits.item() / (64 * K):.3f}")
