# corpus: runnable
"""Self-supervised optical flow on synthetic translated textures: photometric loss through
`grid_sample` warping plus an edge-aware smoothness term. Mostly clean: the normalised base grid
is built once before training, the end-point error is computed under `no_grad`, the loss is
read only at logging steps; only the pixel-to-grid scale is rebuilt in every warp."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
H = W = 24

ys, xs = torch.meshgrid(torch.linspace(-1, 1, H), torch.linspace(-1, 1, W), indexing="ij")
base_grid = torch.stack([xs, ys], -1)[None].to(device)


def warp(img, flow):
    grid = base_grid + flow.permute(0, 2, 3, 1) * torch.tensor([2 / (W - 1), 2 / (H - 1)], device=img.device)  # paef: expect redundant-tensor
    return F.grid_sample(img, grid, align_corners=True, padding_mode="border")


def smoothness(flow, img):
    dx = (flow[..., 1:] - flow[..., :-1]).abs() * torch.exp(-(img[..., 1:] - img[..., :-1]).abs().mean(1, keepdim=True))
    dy = (flow[..., 1:, :] - flow[..., :-1, :]).abs() * torch.exp(-(img[..., 1:, :] - img[..., :-1, :]).abs().mean(1, keepdim=True))
    return dx.mean() + dy.mean()


net = nn.Sequential(nn.Conv2d(2, 32, 5, padding=2), nn.ReLU(), nn.Conv2d(32, 32, 5, padding=2), nn.ReLU(), nn.Conv2d(32, 2, 3, padding=1)).to(device)
opt = torch.optim.Adam(net.parameters(), lr=1e-3)


def batch(n, g):
    tex = F.avg_pool2d(torch.rand(n, 1, H + 8, W + 8, generator=g), 3, 1, 1)
    shift = torch.randint(-2, 3, (n, 2), generator=g)
    a = tex[:, :, 4 : 4 + H, 4 : 4 + W]
    b = torch.stack([t[:, 4 + dy : 4 + dy + H, 4 + dx : 4 + dx + W] for t, (dx, dy) in zip(tex, shift.tolist())])  # paef: ok list-to-tensor; ok elementwise-loop
    return a, b, shift.float()


g = torch.Generator().manual_seed(0)
for step in range(120):
    a, b, _ = batch(16, g)
    a, b = a.to(device), b.to(device)
    flow = net(torch.cat([a, b], 1))
    loss = (warp(b, flow) - a).abs().mean() + 0.1 * smoothness(flow, a)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 40 == 0:
        print(f"step {step} loss {loss.item():.4f}")  # paef: ok host-sync

with torch.no_grad():
    a, b, shift = batch(32, g)
    flow = net(torch.cat([a, b], 1).to(device))
    epe = (flow[:, :, 6:-6, 6:-6].mean((2, 3)) - shift.to(device)).norm(dim=1).mean()
print(f"EPE {epe.item():.3f}")
