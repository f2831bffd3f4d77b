# corpus: runnable
"""SRCNN-style x2 super-resolution on synthetic textures: low-resolution inputs are made on
the fly by bicubic downsampling of each high-resolution batch, and validation reports the
mean PSNR over images, computed image by image as many SR repositories do."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
use_cuda = device.type == "cuda"


def textures(n, size=24):
    g = torch.linspace(0, 1, size)
    yy, xx = torch.meshgrid(g, g, indexing="ij")
    f = torch.rand(n, 3, 1, 1) * 12
    img = 0.5 + 0.25 * torch.sin(f[:, 0:1] * xx + f[:, 1:2] * yy) + 0.25 * torch.cos(f[:, 2:3] * xx * yy)
    return img.clamp(0, 1)


class SRCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(1, 16, 5, padding=2), nn.ReLU(inplace=True), nn.Conv2d(16, 8, 1), nn.ReLU(inplace=True), nn.Conv2d(8, 1, 3, padding=1))

    def forward(self, lr):
        up = F.interpolate(lr, scale_factor=2, mode="bicubic", align_corners=False)
        return up + self.body(up)


hr = textures(224)
train_loader = DataLoader(TensorDataset(hr[:192]), batch_size=16, shuffle=True, pin_memory=use_cuda, drop_last=True)
val_loader = DataLoader(TensorDataset(hr[192:]), batch_size=16, pin_memory=use_cuda)
model = SRCNN().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(3):
    model.train()
    epoch_loss = torch.zeros((), device=device)
    for (x,) in train_loader:
        x = x.to(device, non_blocking=True)
        lr_img = F.interpolate(x, scale_factor=0.5, mode="bicubic", align_corners=False)
        loss = F.l1_loss(model(lr_img), x)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        epoch_loss += loss.detach()
    model.eval()
    psnr_sum, n = 0.0, 0
    with torch.no_grad():
        for (x,) in val_loader:
            x = x.to(device, non_blocking=True)
            sr = model(F.interpolate(x, scale_factor=0.5, mode="bicubic", align_corners=False)).clamp(0, 1)
            for i in range(sr.shape[0]):  # paef: expect elementwise-loop
                mse = F.mse_loss(sr[i], x[i]).item()  # paef: ok host-sync
                psnr_sum += 10 * math.log10(1.0 / mse)
                n += 1
    print(f"epoch {epoch} l1 {epoch_loss.item() / len(train_loader):.4f} psnr {psnr_sum / n:.2f}")
