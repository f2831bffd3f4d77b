import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
X = torch.randn(48, 256, 64)
Y = (X[..., :8].sum(-1) > 0).long()
# %%
model = nn.Sequential(nn.Linear(64, 1024), nn.ReLU(), nn.Linear(1024, 1024), nn.ReLU(), nn.Linear(1024, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.01)
# %%
def auc_like(scores, labels):
    pos, neg = scores[labels == 1], scores[labels == 0]
    return (pos[:, None] > neg[None, :]).float().mean()
# %%
for epoch in range(2):
    epoch_scores, epoch_labels = [], []
    for i in range(len(X)):
        logits = model(X[i])
        loss = F.cross_entropy(logits, Y[i])
        opt.zero_grad()
        loss.backward()
        opt.step()
        epoch_scores.append(logits[:, 1] - logits[:, 0])
        epoch_labels.append(Y[i])
    print(epoch, float(auc_like(torch.cat(epoch_scores)[:4096], torch.cat(epoch_labels)[:4096])))
