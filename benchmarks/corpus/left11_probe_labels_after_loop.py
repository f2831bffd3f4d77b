# corpus: runnable
"""Autoencoder pre-training, then a linear probe on frozen features: the feature-extraction loop
stores the encoder's outputs and the loader's labels; after it only the labels (data, no graph)
and detached features reach the probe's loss. A second extraction over a dataset built from the
encoder's own outputs feeds a loss that back-propagates into the encoder: left alone."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)


def make_points(n):
    cls = torch.randint(0, 4, (n,))
    pts = torch.randn(n, 8) * 0.3
    pts[:, 0] += cls.float()
    return pts, cls


points, classes = make_points(256)
train_loader = DataLoader(TensorDataset(points), batch_size=32, shuffle=True)
probe_loader = DataLoader(TensorDataset(points, classes), batch_size=64)
encoder = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 4))
decoder = nn.Linear(4, 8)
opt = torch.optim.Adam(list(encoder.parameters()) + list(decoder.parameters()), lr=1e-2)
for epoch in range(3):
    for (x,) in train_loader:
        loss = F.mse_loss(decoder(encoder(x)), x)
        opt.zero_grad()
        loss.backward()
        opt.step()

encoder.eval()
feats, labels = [], []
for x, y in probe_loader:  # paef: expect-fix eval-without-no-grad
    feats.append(encoder(x))
    labels.append(y)
feats, labels = torch.cat(feats), torch.cat(labels)
probe = nn.Linear(4, 4)
probe_opt = torch.optim.SGD(probe.parameters(), lr=0.5)
for _ in range(50):
    loss = F.cross_entropy(probe(feats.detach()), labels)
    probe_opt.zero_grad()
    loss.backward()
    probe_opt.step()
print(f"probe loss {loss.item():.4f}")

# Features of the encoder's own outputs, fine-tuned through: the loop's values carry the graph.
fresh, fresh_classes = make_points(128)
codes = encoder(fresh)
code_loader = DataLoader(TensorDataset(codes, fresh_classes), batch_size=64)
outs, targets = [], []
for c, y in code_loader:
    outs.append(decoder(c))
    targets.append(c.sum(1))
tune = (torch.cat(outs).sum(1) - torch.cat(targets)).pow(2).mean()
tune.backward()
print(f"tune {tune.item():.4f}")
