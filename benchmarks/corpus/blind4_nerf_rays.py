# corpus: runnable
"""A tiny NeRF in the style of the popular PyTorch port, on a synthetic scene (a soft sphere
seen from a few poses): rays generated per iteration for a random training pose, a random
subset of pixels, stratified samples along each ray, positional encoding, volume rendering,
PSNR logged every few iterations."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

np.random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
H = W = 16
focal = 20.0
N_rand, N_samples, near, far = 128, 16, 2.0, 6.0

img2mse = lambda x, y: torch.mean((x - y) ** 2)
mse2psnr = lambda x: -10.0 * torch.log(x) / torch.log(torch.tensor(10.0))  # paef: expect redundant-tensor


def pose(theta):
    c, s = np.cos(theta), np.sin(theta)
    return np.array([[c, 0, s, 4 * s], [0, 1, 0, 0], [-s, 0, c, 4 * c]], dtype=np.float32)


class Embedder:
    def __init__(self, n_freqs):
        self.freq_bands = 2.0 ** torch.linspace(0.0, n_freqs - 1, steps=n_freqs)

    def __call__(self, x):
        out = [x]
        for freq in self.freq_bands:
            out += [torch.sin(x * freq), torch.cos(x * freq)]
        return torch.cat(out, -1)


def get_rays(H, W, focal, c2w):
    i, j = torch.meshgrid(torch.arange(W, dtype=torch.float32, device=c2w.device), torch.arange(H, dtype=torch.float32, device=c2w.device), indexing="xy")  # paef: expect redundant-tensor
    dirs = torch.stack([(i - W * 0.5) / focal, -(j - H * 0.5) / focal, -torch.ones_like(i)], -1)  # paef: ok redundant-tensor
    rays_d = torch.sum(dirs[..., None, :] * c2w[:3, :3], -1)
    rays_o = c2w[:3, -1].expand(rays_d.shape)
    return rays_o, rays_d


def render_rays(model, embed, rays_o, rays_d, perturb=True):
    t_vals = torch.linspace(0.0, 1.0, steps=N_samples, device=rays_o.device)  # paef: expect redundant-tensor
    z_vals = (near * (1.0 - t_vals) + far * t_vals).expand(rays_o.shape[0], N_samples)
    if perturb:
        mids = 0.5 * (z_vals[..., 1:] + z_vals[..., :-1])
        upper = torch.cat([mids, z_vals[..., -1:]], -1)
        lower = torch.cat([z_vals[..., :1], mids], -1)
        z_vals = lower + (upper - lower) * torch.rand(z_vals.shape, device=rays_o.device)
    pts = rays_o[..., None, :] + rays_d[..., None, :] * z_vals[..., :, None]
    raw = model(embed(pts))
    dists = z_vals[..., 1:] - z_vals[..., :-1]
    dists = torch.cat([dists, torch.tensor([1e10], device=rays_o.device).expand(dists[..., :1].shape)], -1)  # paef: expect redundant-tensor
    dists = dists * torch.norm(rays_d[..., None, :], dim=-1)
    alpha = 1.0 - torch.exp(-F.relu(raw[..., 3]) * dists)
    weights = alpha * torch.cumprod(torch.cat([torch.ones((alpha.shape[0], 1), device=alpha.device), 1.0 - alpha + 1e-10], -1), -1)[:, :-1]  # paef: ok redundant-tensor
    return torch.sum(weights[..., None] * torch.sigmoid(raw[..., :3]), -2)


def render_gt(rays_o, rays_d):
    t = torch.linspace(near, far, 64, device=rays_o.device)
    pts = rays_o[..., None, :] + rays_d[..., None, :] * t[:, None]
    hit = (pts.norm(dim=-1) < 1.0).any(-1, keepdim=True).float()
    return hit * torch.tensor([0.9, 0.3, 0.2], device=rays_o.device)


poses = torch.from_numpy(np.stack([pose(t) for t in np.linspace(0, 2 * np.pi, 8, endpoint=False)])).to(device)
images = torch.stack([render_gt(*get_rays(H, W, focal, p)) for p in poses])
embed = Embedder(4)
model = nn.Sequential(nn.Linear(3 + 3 * 2 * 4, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 4)).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
coords = torch.stack(torch.meshgrid(torch.arange(H), torch.arange(W), indexing="ij"), -1).reshape(-1, 2)  # paef: ok cpu-then-move
for i in range(120):
    img_i = np.random.choice(len(poses))
    target = images[img_i]
    rays_o, rays_d = get_rays(H, W, focal, poses[img_i])
    select_inds = np.random.choice(coords.shape[0], size=[N_rand], replace=False)
    select_coords = coords[select_inds].long()
    rays_o = rays_o[select_coords[:, 0], select_coords[:, 1]]
    rays_d = rays_d[select_coords[:, 0], select_coords[:, 1]]
    target_s = target[select_coords[:, 0], select_coords[:, 1]]
    rgb = render_rays(model, embed, rays_o, rays_d)
    loss = img2mse(rgb, target_s)
    psnr = mse2psnr(loss)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if i % 50 == 0:
        print(f"[TRAIN] Iter: {i} Loss: {loss.item():.5f} PSNR: {psnr.item():.3f}")

with torch.no_grad():
    rays_o, rays_d = get_rays(H, W, focal, poses[0])
    rgb = render_rays(model, embed, rays_o.reshape(-1, 3), rays_d.reshape(-1, 3), perturb=False)
    print(f"test psnr {mse2psnr(img2mse(rgb, images[0].reshape(-1, 3))).item():.3f}")
