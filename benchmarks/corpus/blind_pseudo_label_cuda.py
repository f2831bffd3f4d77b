# corpus: runnable
"""Older-style semi-supervised script: `.cuda()` behind a flag, pseudo-labels through NumPy, a confidence mask."""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

parser = argparse.ArgumentParser()
parser.add_argument("--epochs", type=int, default=3)
parser.add_argument("--threshold", type=float, default=0.6)
parser.add_argument("--no-cuda", action="store_true")
args = parser.parse_args()
args.cuda = not args.no_cuda and torch.cuda.is_available()
torch.manual_seed(0)
np.random.seed(0)

labeled_x = torch.randn(64, 10)
labeled_y = (labeled_x[:, 0] > 0).long()
unlabeled_x = torch.randn(192, 10)

model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 2))
if args.cuda:
    model.cuda()
    labeled_x, labeled_y, unlabeled_x = labeled_x.cuda(), labeled_y.cuda(), unlabeled_x.cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)

for epoch in range(args.epochs):
    model.train()
    for i in range(0, 192, 32):
        xb_u = unlabeled_x[i : i + 32]
        j = (i // 32) % 2
        xb_l, yb_l = labeled_x[j * 32 : (j + 1) * 32], labeled_y[j * 32 : (j + 1) * 32]
        with torch.no_grad():
            probs = F.softmax(model(xb_u), dim=1)
        probs_np = probs.cpu().numpy()  # paef: ok ping-pong; ok host-sync
        pseudo = np.argmax(probs_np, axis=1)
        conf = np.max(probs_np, axis=1)
        mask = torch.from_numpy((conf > args.threshold).astype(np.float32))  # paef: expect ping-pong
        pseudo_t = torch.from_numpy(pseudo)  # paef: ok ping-pong
        if args.cuda:
            mask, pseudo_t = mask.cuda(), pseudo_t.cuda()  # paef: ok ping-pong; ok pageable-transfer
        sup = F.cross_entropy(model(xb_l), yb_l)
        unsup = (F.cross_entropy(model(xb_u), pseudo_t, reduction="none") * mask).mean()
        loss = sup + 0.5 * unsup
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    model.eval()
    with torch.no_grad():
        acc = (model(labeled_x).argmax(1) == labeled_y).float().mean().item()
    print(f"epoch {epoch} loss {loss.item():.4f} labeled acc {acc:.4f} mask rate {mask.mean().item():.3f}")
