# corpus: runnable
# Red team 30a, wave 1 (blind): online k-means features for a small classifier (DeepCluster style).
# The centroids are a module-level tensor that `update_centroids` moves in place with an EMA (no
# `global` needed: it is never rebound). Each step `train` takes a snapshot of the centroids through
# the host (`torch.tensor(centroids.tolist())`) before the update, to log how far they drifted.
import argparse

import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
K, D = 4, 8
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
centroids = torch.randn(K, D, generator=torch.Generator().manual_seed(7)).to(device)


def assign(z):
    return torch.cdist(z, centroids).argmin(1)


def update_centroids(z, labels, momentum):
    for k in range(K):
        members = z[labels == k]
        if len(members):
            centroids[k].mul_(momentum).add_(members.mean(0), alpha=1 - momentum)


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, D))
        self.head = nn.Linear(D, 3)

    def forward(self, x):
        z = self.body(x)
        return z, self.head(z)


def train(args):
    gen = torch.Generator().manual_seed(args.seed)
    x = torch.randn(320, 12, generator=gen)
    y = (x[:, 0] > 0).long() + (x[:, 1] > 0.5).long()
    torch.manual_seed(args.seed)
    model = Encoder().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    drifts = []
    for epoch in range(args.epochs):
        for i in range(0, len(x), args.bs):
            xb, yb = x[i:i + args.bs].to(device), y[i:i + args.bs].to(device)
            z, logits = model(xb)
            labels = assign(z.detach())
            before = torch.tensor(centroids.tolist(), device=device)
            update_centroids(z.detach(), labels, args.momentum)
            drifts.append((centroids - before).norm().item())
            loss = F.cross_entropy(logits, yb) + 0.01 * F.mse_loss(z, centroids[labels])
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.5f} drift {sum(drifts[-10:]):.6f}")
    print("total drift", round(sum(drifts), 6), "centroid sum", round(centroids.sum().item(), 5))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--bs", type=int, default=32)
    p.add_argument("--momentum", type=float, default=0.9)
    p.add_argument("--seed", type=int, default=0)
    train(p.parse_args())


if __name__ == "__main__":
    main()
