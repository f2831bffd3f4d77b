# corpus: runnable
"""An evaluation script: trains briefly, then a predict loop without no_grad, predictions round-tripped through NumPy, sklearn-like metrics in NumPy."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
np.random.seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
N_CLS = 4

X = torch.randn(480, 16)
Y = X[:, :N_CLS].argmax(1)
train_loader = DataLoader(TensorDataset(X[:384], Y[:384]), batch_size=32, shuffle=True)  # paef: ok pageable-transfer
test_loader = DataLoader(TensorDataset(X[384:], Y[384:]), batch_size=32)  # paef: ok pageable-transfer
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, N_CLS)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(3):
    for xb, yb in train_loader:
        xb, yb = xb.to(device), yb.to(device)
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()


def confusion_matrix(y_true, y_pred, n):
    cm = np.zeros((n, n), dtype=np.int64)
    np.add.at(cm, (y_true, y_pred), 1)
    return cm


def precision_recall_f1(cm):
    tp = np.diag(cm).astype(np.float64)
    precision = tp / np.maximum(cm.sum(0), 1)
    recall = tp / np.maximum(cm.sum(1), 1)
    f1 = 2 * precision * recall / np.maximum(precision + recall, 1e-12)
    return precision, recall, f1


def predict(model, loader):
    model.eval()
    all_probs, all_true = [], []
    n_correct = 0
    for xb, yb in loader:  # paef: expect-fix eval-without-no-grad
        xb, yb = xb.to(device), yb.to(device)
        probs = F.softmax(model(xb), dim=1)
        pred = probs.argmax(1).cpu().numpy()  # paef: ok host-sync
        n_correct += torch.from_numpy(pred).to(device).eq(yb).sum()  # paef: expect ping-pong
        all_probs.append(probs.detach().cpu().numpy())  # paef: ok host-sync
        all_true.append(yb.cpu().numpy())  # paef: ok host-sync; ok ping-pong
    return np.concatenate(all_probs), np.concatenate(all_true), n_correct.item()


probs, y_true, n_correct = predict(model, test_loader)
y_pred = probs.argmax(1)
cm = confusion_matrix(y_true, y_pred, N_CLS)
p, r, f1 = precision_recall_f1(cm)
print("confusion\n", cm)
print(f"accuracy {n_correct / len(y_true):.4f} macro-f1 {f1.mean():.4f}")
print("per-class precision", np.round(p, 4), "recall", np.round(r, 4))
