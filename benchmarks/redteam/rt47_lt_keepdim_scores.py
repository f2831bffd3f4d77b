# corpus: runnable
# Red team 47 (blind): a validation loop whose collate returns a namedtuple batch. Per-batch scores are
# kept as tensors and turned into one tensor with `torch.tensor(list)`: the head has ONE output, so
# `model(x).mean(0)` has shape (1,), not (); the per-batch weight sums are int32 (the weight column is int32)
# while the counts are int64, and one list mixes a float64 calibration score with float32 ones.
# Shapes, dtypes and values are printed.
from collections import namedtuple

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(5)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

Batch = namedtuple("Batch", ["x", "y", "w"])


class Rows(Dataset):
    def __init__(self, n):
        rng = np.random.RandomState(1)
        self.x = rng.randn(n, 6).astype(np.float32)
        self.y = (self.x[:, 0] > 0).astype(np.float32)
        self.w = rng.randint(1, 4, size=n).astype(np.int32)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i], self.y[i], self.w[i]


def collate(items):
    xs, ys, ws = zip(*items)
    return Batch(torch.from_numpy(np.stack(xs)), torch.tensor(ys), torch.from_numpy(np.array(ws)))


model = nn.Sequential(nn.Linear(6, 8), nn.Tanh(), nn.Linear(8, 1)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
train = DataLoader(Rows(40), batch_size=8, shuffle=False, collate_fn=collate)
val = DataLoader(Rows(20), batch_size=5, shuffle=False, collate_fn=collate)

for epoch in range(2):
    model.train()
    for b in train:
        x, y = b.x.to(device), b.y.to(device)
        loss = nn.functional.binary_cross_entropy_with_logits(model(x).squeeze(1), y)
        opt.zero_grad()
        loss.backward()
        opt.step()

    model.eval()
    scores = []
    weight_sums = []
    counts = []
    calib = []
    with torch.no_grad():
        for b in val:
            x = b.x.to(device)
            out = model(x)
            scores.append(out.mean(0))
            weight_sums.append(b.w.sum(dtype=torch.int32))
            counts.append((out.squeeze(1) > 0).sum())
            calib.append(torch.sigmoid(out).mean().double() if len(calib) == 0 else torch.sigmoid(out).mean())
    s = torch.tensor(scores)
    ws = torch.tensor(weight_sums)
    c = torch.tensor(counts)
    cb = torch.tensor(calib)
    print("epoch", epoch, "scores", tuple(s.shape), s.dtype, [f"{v:.9f}" for v in s.flatten().tolist()])
    print("  weight sums", tuple(ws.shape), ws.dtype, ws.tolist(), "counts", c.dtype, c.tolist())
    print("  calib", cb.dtype, [f"{v:.12f}" for v in cb.tolist()])
    print("  mean score %.9f" % s.mean().item(), "ratio", (c.float() / ws.float()).tolist())
