"""Intent classifier with a metrics logger object: after every batch the logger takes the
probabilities to Python and scores each sample in a Python loop (NLL, top-1, calibration bins)."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class MetricsLogger:
    def __init__(self, n_bins=10):
        self.nll, self.hits, self.seen = 0.0, 0, 0
        self.bins = [[0, 0] for _ in range(n_bins)]

    def on_batch_end(self, logits, targets):
        probs = logits.detach().softmax(dim=1).tolist()
        for row, t in zip(probs, targets.tolist()):
            best = max(range(len(row)), key=row.__getitem__)
            self.nll -= math.log(max(row[t], 1e-12))
            self.hits += best == t
            b = min(int(row[best] * len(self.bins)), len(self.bins) - 1)
            self.bins[b][0] += 1
            self.bins[b][1] += best == t
            self.seen += 1

    def summary(self):
        return self.nll / self.seen, self.hits / self.seen


def train(model, opt, X, Y, logger):
    for i in range(len(X)):
        logits = model(X[i])
        loss = F.cross_entropy(logits, Y[i])
        opt.zero_grad()
        loss.backward()
        opt.step()
        logger.on_batch_end(logits, Y[i])


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 40))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
X, Y = torch.randn(40, 256, 64), torch.randint(0, 40, (40, 256))
logger = MetricsLogger()
for epoch in range(2):
    train(model, opt, X, Y, logger)
print("nll %.3f acc %.3f" % logger.summary())
