# corpus: runnable
"""Session recommender whose padded sessions are tensors built once, before training."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

random.seed(0)
torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
n_items, max_len = 40, 6

sessions = [[random.randrange(1, n_items) for _ in range(random.randint(2, max_len))] for _ in range(200)]
# dict of lists, as read from disk ...
data = {"items": [s[:-1] for s in sessions], "target": [s[-1] for s in sessions]}
# ... converted once: a dict of tensors
padded = torch.zeros(len(sessions), max_len, dtype=torch.long)
for row, items in enumerate(data["items"]):
    padded[row, : len(items)] = torch.tensor(items)
columns = {"items": padded.to(device), "target": torch.tensor(data["target"], device=device)}


class SessionModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(n_items, 16, padding_idx=0)

    def forward(self, items):
        mask = (items > 0).unsqueeze(-1).float()
        sess = (self.emb(items) * mask).sum(1) / mask.sum(1).clamp(min=1)
        return F.normalize(sess, dim=-1) @ F.normalize(self.emb.weight, dim=-1).t() * 10


model = SessionModel().to(device)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(3):
    perm = torch.randperm(len(sessions), device=device)
    for start in range(0, len(sessions), 50):
        idx = perm[start : start + 50]
        batch = {k: v[idx] for k, v in columns.items()}
        loss = F.cross_entropy(model(batch["items"]), batch["target"])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        scores = model(columns["items"])
        hit = (scores.topk(10, dim=1).indices == columns["target"].unsqueeze(1)).any(1).float().mean()
    print(f"epoch {epoch} loss {loss.item():.4f} hit@10 {hit.item():.4f}")
