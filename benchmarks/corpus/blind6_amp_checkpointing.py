# corpus: runnable
"""A small Transformer classifier trained with automatic mixed precision (autocast + GradScaler,
a no-op on CPU) and activation checkpointing of each block (torch.utils.checkpoint), gradient
clipping on unscaled gradients, a warmup-then-linear-decay schedule, skipped steps when the
loss is not finite, and the gradient norm logged every step into a metrics list."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
use_amp = device.type == "cuda"
SEQ, DIM, STEPS, WARMUP = 16, 32, 60, 10


class Block(nn.Module):
    def __init__(self, dim, heads=4):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        h = self.ln1(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.mlp(self.ln2(x))


class Classifier(nn.Module):
    def __init__(self, vocab=50, n_blocks=3, grad_ckpt=True):
        super().__init__()
        self.emb = nn.Embedding(vocab, DIM)
        self.blocks = nn.ModuleList([Block(DIM) for _ in range(n_blocks)])
        self.head = nn.Linear(DIM, 2)
        self.grad_ckpt = grad_ckpt

    def forward(self, ids):
        x = self.emb(ids)
        for block in self.blocks:
            if self.grad_ckpt and self.training:
                x = checkpoint(block, x, use_reentrant=False)
            else:
                x = block(x)
        return self.head(x.mean(1))


def lr_lambda(step):
    return (step + 1) / WARMUP if step < WARMUP else max(0.0, (STEPS - step) / (STEPS - WARMUP))


ids = torch.randint(0, 50, (512, SEQ))
labels = (ids[:, :4] < 25).sum(1).ge(2).long()
model = Classifier().to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lr_lambda)
scaler = torch.amp.GradScaler("cuda", enabled=use_amp)
metrics = []
for step in range(STEPS):
    idx = torch.randint(0, 448, (32,))
    x, y = ids[idx].to(device), labels[idx].to(device)
    model.train()
    with torch.autocast(device_type=device.type, dtype=torch.float16 if use_amp else torch.bfloat16, enabled=use_amp):
        loss = F.cross_entropy(model(x), y)
    if not torch.isfinite(loss):  # paef: ok host-sync
        optimizer.zero_grad(set_to_none=True)
        continue
    scaler.scale(loss).backward()
    scaler.unscale_(optimizer)
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    scaler.step(optimizer)
    scaler.update()
    scheduler.step()
    optimizer.zero_grad(set_to_none=True)
    metrics.append({"step": step, "loss": loss.item(), "grad_norm": grad_norm.item(), "lr": scheduler.get_last_lr()[0]})  # paef: expect host-sync

model.eval()
with torch.no_grad():
    acc = (model(ids[448:].to(device)).argmax(1) == labels[448:].to(device)).float().mean()
print(f"last {metrics[-1]['loss']:.4f} mean grad norm {sum(m['grad_norm'] for m in metrics) / len(metrics):.3f} acc {acc.item():.3f}")
