# corpus: runnable
"""A deep residual MLP trained with activation checkpointing (torch.utils.checkpoint per
block, non-reentrant), an optional torch.compile behind a flag, gradients clipped with the
norm checked for non-finite values before stepping, per-step losses kept for a smoothed log,
evaluation in inference mode."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.fc1 = nn.Linear(d, 2 * d)
        self.fc2 = nn.Linear(2 * d, d)

    def forward(self, x):
        return x + self.fc2(F.gelu(self.fc1(self.norm(x))))


class DeepMLP(nn.Module):
    def __init__(self, d_in, d, depth, n_out, use_checkpoint):
        super().__init__()
        self.stem = nn.Linear(d_in, d)
        self.blocks = nn.ModuleList([Block(d) for _ in range(depth)])
        self.head = nn.Linear(d, n_out)
        self.use_checkpoint = use_checkpoint

    def forward(self, x):
        x = self.stem(x)
        for blk in self.blocks:
            if self.use_checkpoint and self.training:
                x = checkpoint(blk, x, use_reentrant=False)
            else:
                x = blk(x)
        return self.head(x)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--compile", action="store_true")
    parser.add_argument("--steps", type=int, default=80)
    parser.add_argument("--grad-checkpointing", action="store_true", default=True)
    args = parser.parse_args()
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    X = torch.randn(1024, 20, device=device)
    W = torch.randn(20, 5, device=device)
    Y = (X @ W).argmax(1)
    model = DeepMLP(20, 32, 4, 5, args.grad_checkpointing).to(device)
    if args.compile:
        model = torch.compile(model)
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3)
    losses = []
    skipped = 0
    for step in range(args.steps):
        model.train()
        idx = torch.randint(0, 1024, (64,), device=device)
        loss = F.cross_entropy(model(X[idx]), Y[idx])
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        grad_norm = nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        if not torch.isfinite(grad_norm):  # paef: ok host-sync
            skipped += 1
            continue
        optimizer.step()
        losses.append(loss.item())  # paef: expect host-sync
        if step % 40 == 0:
            print(f"step {step} loss(avg50) {sum(losses[-50:]) / len(losses[-50:]):.4f}")
    model.eval()
    with torch.inference_mode():
        acc = (model(X).argmax(1) == Y).float().mean().item()
    print(f"skipped {skipped} accuracy {acc:.4f}")


if __name__ == "__main__":
    main()
