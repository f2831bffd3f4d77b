# corpus: runnable
# Red team 30a, wave 1 (blind): a tabular model that buckets a continuous feature (age) into ordinal
# bins with `torch.bucketize(..., out_int32=True)` (int32 halves the memory of the id tensors in the
# original data pipeline), then rebuilds the ids as a fresh tensor from `.tolist()` before one-hot
# encoding them (`F.one_hot` wants int64 indices).
import argparse

import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"
EDGES = torch.tensor([18.0, 25.0, 35.0, 45.0, 55.0, 65.0])


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--bs", type=int, default=64)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    gen = torch.Generator().manual_seed(args.seed)
    age = 15 + 60 * torch.rand(512, generator=gen)
    other = torch.randn(512, 4, generator=gen)
    target = ((age > 40).float() + other[:, 0] * 0.3 > 0.5).float()
    torch.manual_seed(args.seed)
    model = nn.Sequential(nn.Linear(4 + len(EDGES) + 1, 16), nn.ReLU(), nn.Linear(16, 1)).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    edges = EDGES.to(device)
    for epoch in range(args.epochs):
        total = 0.0
        for i in range(0, 512, args.bs):
            a, o, t = age[i:i + args.bs].to(device), other[i:i + args.bs].to(device), target[i:i + args.bs].to(device)
            bins = torch.bucketize(a, edges, out_int32=True)
            ids = torch.tensor(bins.tolist(), device=device)
            feats = torch.cat([o, F.one_hot(ids, len(EDGES) + 1).float()], 1)
            loss = F.binary_cross_entropy_with_logits(model(feats).squeeze(1), t)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        print(f"epoch {epoch} loss {total:.5f}")


if __name__ == "__main__":
    main()
