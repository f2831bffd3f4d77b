# corpus: runnable
"""Unsupervised optical flow on synthetic translated blobs: a small encoder-decoder predicts a
dense flow field, the second frame is warped back to the first with grid_sample (the sampling
grid built from a mesh of pixel coordinates), and the loss is a Charbonnier photometric term
plus an edge-aware smoothness term. End-point error against the known shift is reported."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
H = W = 32


def warp(img, flow):
    b, _, h, w = img.shape
    yy, xx = torch.meshgrid(torch.arange(h), torch.arange(w), indexing="ij")  # paef: expect redundant-tensor
    base = torch.stack([xx, yy], 0).float().to(img.device)  # paef: ok redundant-tensor; ok cpu-then-move
    coords = base.unsqueeze(0) + flow
    gx = 2.0 * coords[:, 0] / (w - 1) - 1.0
    gy = 2.0 * coords[:, 1] / (h - 1) - 1.0
    return F.grid_sample(img, torch.stack([gx, gy], -1), align_corners=True, padding_mode="border")


def charbonnier(x, eps=1e-3, alpha=0.45):
    return ((x**2 + eps**2) ** alpha).mean()


def smoothness(flow, img):
    dx_f = flow[..., 1:] - flow[..., :-1]
    dy_f = flow[..., 1:, :] - flow[..., :-1, :]
    wx = torch.exp(-(img[..., 1:] - img[..., :-1]).abs().mean(1, keepdim=True))
    wy = torch.exp(-(img[..., 1:, :] - img[..., :-1, :]).abs().mean(1, keepdim=True))
    return (dx_f.abs() * wx).mean() + (dy_f.abs() * wy).mean()


class FlowNetTiny(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(2, 16, 3, 2, 1), nn.LeakyReLU(0.1), nn.Conv2d(16, 32, 3, 2, 1), nn.LeakyReLU(0.1))
        self.dec = nn.Sequential(nn.ConvTranspose2d(32, 16, 4, 2, 1), nn.LeakyReLU(0.1), nn.ConvTranspose2d(16, 2, 4, 2, 1))

    def forward(self, a, b):
        return self.dec(self.enc(torch.cat([a, b], 1))) * 2.0


def make_pair(n):
    yy, xx = torch.meshgrid(torch.arange(H).float(), torch.arange(W).float(), indexing="ij")  # paef: ok redundant-tensor
    cx, cy = torch.rand(n, 1, 1) * 16 + 8, torch.rand(n, 1, 1) * 16 + 8
    shift = torch.randint(-2, 3, (n, 2)).float()
    a = torch.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / 20)
    b = torch.exp(-((xx - cx - shift[:, 0, None, None]) ** 2 + (yy - cy - shift[:, 1, None, None]) ** 2) / 20)
    return a.unsqueeze(1), b.unsqueeze(1), shift


model = FlowNetTiny().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for step in range(120):
    a, b, _ = make_pair(16)
    a, b = a.to(device), b.to(device)
    flow = model(a, b)
    loss = charbonnier(warp(b, flow) - a) + 0.1 * smoothness(flow, a)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 40 == 0:
        print(f"step {step} loss {loss.item():.5f}")

model.eval()
a, b, shift = make_pair(32)
with torch.no_grad():
    flow = model(a.to(device), b.to(device))
    center = flow[:, :, 8:24, 8:24].mean(dim=(2, 3)).cpu()
epe = (center - shift).norm(dim=1).mean()
print(f"mean EPE at blob centers {epe.item():.3f}")
