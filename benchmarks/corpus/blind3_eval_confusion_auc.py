# corpus: runnable
"""Binary/multiclass evaluation utilities as found in many training repos: predictions and
probabilities gathered per batch, a confusion matrix, per-class precision/recall, and a
rank-based ROC AUC written in NumPy."""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
n_classes = 3

X = torch.randn(900, 10)
Y = ((X[:, 0] > 0.3).long() + (X[:, 1] > 0.0).long())
model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, n_classes)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
train_loader = DataLoader(TensorDataset(X[:700], Y[:700]), batch_size=50, shuffle=True)  # paef: ok pageable-transfer
test_loader = DataLoader(TensorDataset(X[700:], Y[700:]), batch_size=50)  # paef: ok pageable-transfer

for epoch in range(5):
    for xb, yb in train_loader:
        xb, yb = xb.to(device), yb.to(device)
        loss = nn.functional.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()


def roc_auc(y_true, scores):
    order = np.argsort(scores)
    ranks = np.empty(len(scores))
    ranks[order] = np.arange(1, len(scores) + 1)
    pos = y_true == 1
    n_pos, n_neg = pos.sum(), (~pos).sum()
    return (ranks[pos].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)


model.eval()
all_preds, all_targets, all_probs = [], [], []
with torch.no_grad():
    for xb, yb in test_loader:
        logits = model(xb.to(device))
        probs = torch.softmax(logits, dim=1)
        all_probs.append(probs.cpu())
        all_preds.extend(probs.argmax(1).cpu().tolist())  # paef: ok host-sync; ok list-to-tensor
        all_targets.extend(yb.tolist())

preds = torch.tensor(all_preds)  # paef: ok list-to-tensor
targets = torch.tensor(all_targets)
probs = torch.cat(all_probs)

confusion = torch.zeros(n_classes, n_classes, dtype=torch.long)
for t, p in zip(targets, preds):  # paef: expect elementwise-loop
    confusion[t, p] += 1
print("confusion matrix:\n", confusion.numpy())
for c in range(n_classes):
    tp = confusion[c, c].item()
    prec = tp / max(confusion[:, c].sum().item(), 1)
    rec = tp / max(confusion[c, :].sum().item(), 1)
    print(f"class {c}: precision {prec:.3f} recall {rec:.3f}")
aucs = [roc_auc((targets == c).numpy().astype(int), probs[:, c].numpy()) for c in range(n_classes)]
print("one-vs-rest AUC:", " ".join(f"{a:.4f}" for a in aucs))
print(f"accuracy {(preds == targets).float().mean().item():.4f}")
