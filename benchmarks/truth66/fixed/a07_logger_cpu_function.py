"""Fixed: the logger scores the batch with tensor ops and reads numbers once, at the end."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MetricsLogger:
    def __init__(self, n_bins=10):
        self.nll, self.hits, self.seen = torch.zeros(()), torch.zeros(()), 0
        self.n_bins = n_bins
        self.bins = torch.zeros(n_bins, 2)

    def on_batch_end(self, logits, targets):
        with torch.no_grad():
            logp = logits.log_softmax(dim=1)
            conf, best = logp.exp().max(dim=1)
            hit = (best == targets).float()
            self.nll -= logp.gather(1, targets[:, None]).sum()
            self.hits += hit.sum()
            b = (conf * self.n_bins).long().clamp(max=self.n_bins - 1)
            self.bins.index_add_(0, b, torch.stack([torch.ones_like(hit), hit], dim=1))
            self.seen += len(targets)

    def summary(self):
        return float(self.nll) / self.seen, float(self.hits) / self.seen


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
