"""Model, a metric tracker and the training loop."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F


class TabNet(nn.Module):
    def __init__(self, n_num, n_cat, emb=4):
        super().__init__()
        self.emb = nn.Embedding(n_cat, emb)
        self.body = nn.Sequential(nn.Linear(n_num + emb, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, num, cat):
        return self.body(torch.cat([num, self.emb(cat)], 1)).squeeze(1)


class Tracker:
    def __init__(self):
        self.sums = defaultdict(float)
        self.counts = defaultdict(int)
        self.history = defaultdict(list)

    def add(self, name, value, n=1):
        self.sums[name] += value * n
        self.counts[name] += n

    def close_epoch(self):
        out = {k: self.sums[k] / self.counts[k] for k in self.sums}
        for k, v in out.items():
            self.history[k].append(v)
        self.sums.clear()
        self.counts.clear()
        return out


def fit(model, batches, val, device, epochs=6, lr=0.05):
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    tracker = Tracker()
    pos_weight = None
    for epoch in range(epochs):
        for num, cat, y in batches:
            num, cat, y = num.to(device), cat.to(device), y.to(device)
            if pos_weight is None:
                pos_weight = torch.tensor((y == 0).sum().item() / max(1, (y == 1).sum().item()), device=device)
            logit = model(num.float(), cat)
            loss = F.binary_cross_entropy_with_logits(logit, y.float(), pos_weight=pos_weight)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tracker.add('loss', loss.item(), len(y))
            tracker.add('acc', ((logit > 0).long() == y).float().mean().item(), len(y))
        num, cat, y = (t.to(device) for t in val)
        model.eval()
        vlogit = model(num.float(), cat)
        model.train()
        tracker.add('val_loss', F.binary_cross_entropy_with_logits(vlogit, y.float()).item(), len(y))
        stats = tracker.close_epoch()
        print(f'epoch {epoch} ' + ' '.join(f'{k} {v:.6f}' for k, v in sorted(stats.items())))
    return tracker.history, pos_weight
