# corpus: runnable
"""Masked autoencoder (MAE) pre-training on small synthetic images: patchify, per-sample random
masking by argsort of uniform noise (keeping 25% of the patches), a Transformer encoder over the
visible patches with fixed 2-D sin-cos position embeddings built in NumPy at construction, a
light decoder with mask tokens, and the loss on the masked patches only (normalised pixels)."""
import numpy as np
import torch
import torch.nn as nn

np.random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
IMG, P, DIM, MASK_RATIO = 16, 4, 32, 0.75
N_PATCH = (IMG // P) ** 2


def get_2d_sincos_pos_embed(dim, grid_size):
    gh, gw = np.meshgrid(np.arange(grid_size, dtype=np.float32), np.arange(grid_size, dtype=np.float32), indexing="ij")
    omega = 1.0 / 10000 ** (np.arange(dim // 4, dtype=np.float64) / (dim / 4.0))
    out_h, out_w = np.outer(gh.reshape(-1), omega), np.outer(gw.reshape(-1), omega)
    return np.concatenate([np.sin(out_h), np.cos(out_h), np.sin(out_w), np.cos(out_w)], axis=1).astype(np.float32)


def patchify(imgs):
    b = imgs.shape[0]
    x = imgs.reshape(b, 1, IMG // P, P, IMG // P, P)
    return torch.einsum("nchpwq->nhwpqc", x).reshape(b, N_PATCH, P * P)


def random_masking(x, mask_ratio):
    n, l, d = x.shape
    len_keep = int(l * (1 - mask_ratio))
    noise = torch.rand(n, l, device=x.device)
    ids_shuffle = torch.argsort(noise, dim=1)
    ids_restore = torch.argsort(ids_shuffle, dim=1)
    ids_keep = ids_shuffle[:, :len_keep]
    x_masked = torch.gather(x, 1, ids_keep.unsqueeze(-1).repeat(1, 1, d))
    mask = torch.ones([n, l], device=x.device)
    mask[:, :len_keep] = 0
    return x_masked, torch.gather(mask, 1, ids_restore), ids_restore


class MAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Linear(P * P, DIM)
        self.register_buffer("pos", torch.from_numpy(get_2d_sincos_pos_embed(DIM, IMG // P)).unsqueeze(0))
        self.encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(DIM, 4, 64, dropout=0.0, batch_first=True), 2)
        self.mask_token = nn.Parameter(torch.zeros(1, 1, DIM))
        self.decoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(DIM, 4, 64, dropout=0.0, batch_first=True), 1)
        self.pred = nn.Linear(DIM, P * P)

    def forward(self, imgs):
        target = patchify(imgs)
        x, mask, ids_restore = random_masking(self.embed(target) + self.pos, MASK_RATIO)
        x = self.encoder(x)
        tokens = self.mask_token.repeat(x.shape[0], N_PATCH - x.shape[1], 1)
        x = torch.gather(torch.cat([x, tokens], 1), 1, ids_restore.unsqueeze(-1).repeat(1, 1, DIM))
        pred = self.pred(self.decoder(x + self.pos))
        mean, var = target.mean(-1, keepdim=True), target.var(-1, keepdim=True)
        target = (target - mean) / (var + 1e-6) ** 0.5
        loss = ((pred - target) ** 2).mean(-1)
        return (loss * mask).sum() / mask.sum()


yy, xx = np.meshgrid(np.linspace(-1, 1, IMG), np.linspace(-1, 1, IMG), indexing="ij")
freqs = np.random.uniform(1, 4, (256, 2))
images = torch.from_numpy(np.sin(np.pi * (freqs[:, 0, None, None] * xx + freqs[:, 1, None, None] * yy)).astype(np.float32)).unsqueeze(1)

model = MAE().to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, betas=(0.9, 0.95), weight_decay=0.05)
log = []
for epoch in range(4):
    perm = torch.randperm(len(images))
    for i in range(0, len(images), 32):
        loss = model(images[perm[i : i + 32]].to(device))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        log.append(loss.item())  # paef: expect host-sync
    print(f"epoch {epoch} loss {np.mean(log[-8:]):.4f}")
