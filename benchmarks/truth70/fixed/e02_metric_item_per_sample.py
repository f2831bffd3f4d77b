"""Twin of e02: the counts are tensor reductions, one Python number per batch."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def f1_score(pred, target):
    tp = ((pred == 1) & (target == 1)).sum()
    fp = ((pred == 1) & (target != 1)).sum()
    fn = ((pred != 1) & (target == 1)).sum()
    return float(2 * tp / (2 * tp + fp + fn).clamp(min=1))


torch.manual_seed(0)
Xtr, Xva = torch.randn(2048, 16), torch.randn(32768, 16)
w = torch.randn(16)
Ytr, Yva = (Xtr @ w > 0).long(), (Xva @ w > 0).long()
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(3):
    for s in range(0, len(Xtr), 128):
        loss = F.cross_entropy(model(Xtr[s:s + 128]), Ytr[s:s + 128])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        scores = []
        for s in range(0, len(Xva), 1024):
            pred = model(Xva[s:s + 1024]).argmax(1)
            scores.append(f1_score(pred, Yva[s:s + 1024]))
    print(f"epoch {epoch} val f1 {sum(scores) / len(scores):.3f}")
