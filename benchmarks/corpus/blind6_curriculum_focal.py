# corpus: runnable
"""Curriculum learning by self-paced difficulty: before each epoch every training sample is
scored with the current model (its loss), and only the easiest fraction (growing from 40% to
100%) is trained on; the loss is a hand-written multi-class focal loss with label smoothing.
A per-class recall table is printed at the end."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Subset, TensorDataset

np.random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
N_CLASSES = 4


def focal_loss(logits, target, gamma=2.0, smoothing=0.1, reduction="mean"):
    logp = F.log_softmax(logits, dim=1)
    with torch.no_grad():
        soft = torch.full_like(logp, smoothing / (N_CLASSES - 1))
        soft.scatter_(1, target.unsqueeze(1), 1 - smoothing)
    pt = logp.exp()
    loss = -(soft * (1 - pt) ** gamma * logp).sum(1)
    return loss.mean() if reduction == "mean" else loss


def difficulty_scores(model, dataset):
    model.eval()
    scores = []
    for x, y in DataLoader(dataset, batch_size=128):  # paef: expect-fix eval-without-no-grad; ok pageable-transfer
        scores.append(focal_loss(model(x.to(device)), y.to(device), reduction="none"))
    return torch.cat(scores)


X = torch.randn(800, 20)
W_true = torch.randn(20, N_CLASSES)
noise = torch.randn(800, N_CLASSES) * torch.linspace(0.1, 2.0, 800).unsqueeze(1)
Y = (X @ W_true + noise).argmax(1)
train_set = TensorDataset(X[:640], Y[:640])
X_val, Y_val = X[640:].to(device), Y[640:].to(device)

model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, N_CLASSES)).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
EPOCHS = 6
for epoch in range(EPOCHS):
    frac = 0.4 + 0.6 * epoch / (EPOCHS - 1)
    scores = difficulty_scores(model, train_set)
    keep = scores.argsort()[: int(frac * len(train_set))].tolist()
    loader = DataLoader(Subset(train_set, keep), batch_size=32, shuffle=True)  # paef: ok pageable-transfer
    model.train()
    seen, total = 0, torch.zeros((), device=device)
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss = focal_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.detach() * len(y)
        seen += len(y)
    with torch.no_grad():
        val_acc = (model(X_val).argmax(1) == Y_val).float().mean().item()
    print(f"epoch {epoch} frac {frac:.2f} loss {total.item() / seen:.4f} val acc {val_acc:.3f}")

with torch.no_grad():
    pred = model(X_val).argmax(1)
for c in range(N_CLASSES):
    mask = Y_val == c
    print(f"class {c} recall {(pred[mask] == c).float().mean().item():.3f}")  # paef: ok host-sync
