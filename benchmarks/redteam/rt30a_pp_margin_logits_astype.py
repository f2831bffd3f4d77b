# corpus: runnable
# Red team 30a, wave 1 (blind): additive-margin softmax (CosFace style) with a confidence mask for
# a consistency term. The host copy of the raw cosine logits is taken with `.astype(np.float32)`
# (a copy), then the margin is subtracted from the logits in place for the target classes; the mask
# of "already confident" samples is built from the copy taken before the margin.
import argparse

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class CosineHead(nn.Module):
    def __init__(self, d, classes, scale):
        super().__init__()
        self.w = nn.Parameter(torch.randn(classes, d) * 0.1)
        self.scale = scale

    def forward(self, z):
        return self.scale * F.normalize(z, dim=1) @ F.normalize(self.w, dim=1).t()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--margin", type=float, default=0.35)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    gen = torch.Generator().manual_seed(args.seed)
    x = torch.randn(256, 6, generator=gen)
    y = (x[:, :3].sum(1) > 0).long() + (x[:, 3] > 0.7).long()
    torch.manual_seed(args.seed)
    body = nn.Sequential(nn.Linear(6, 24), nn.ReLU(), nn.Linear(24, 8)).to(device)
    head = CosineHead(8, 3, 4.0).to(device)
    opt = torch.optim.SGD(list(body.parameters()) + list(head.parameters()), lr=0.1)
    for epoch in range(args.epochs):
        kept = 0.0
        for i in range(0, 256, 32):
            xb, yb = x[i:i + 32].to(device), y[i:i + 32].to(device)
            logits = head(body(xb))
            raw = logits.detach().cpu().numpy().astype(np.float32)
            logits.sub_(args.margin * head.scale * F.one_hot(yb, 3))
            confident = torch.from_numpy((raw.max(axis=1) > 2.0).astype(np.float32)).to(device)
            ce = F.cross_entropy(logits, yb, reduction="none")
            loss = (ce * (1.0 - 0.5 * confident)).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            kept += confident.sum().item()
        print(f"epoch {epoch} loss {loss.item():.5f} confident {kept:.0f}")


if __name__ == "__main__":
    main()
