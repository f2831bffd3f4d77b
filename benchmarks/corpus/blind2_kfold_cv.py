# corpus: runnable
"""K-fold cross-validation of a small regressor: the fold's training tensors are rebuilt from NumPy every epoch."""
import numpy as np
import torch
import torch.nn as nn

np.random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

X = np.random.randn(300, 6).astype(np.float32)
w_true = np.array([1.5, -2.0, 0.5, 0.0, 1.0, -0.5], dtype=np.float32)
y = (X @ w_true + 0.1 * np.random.randn(300)).astype(np.float32)


def kfold_indices(n, k, seed=0):
    idx = np.random.RandomState(seed).permutation(n)
    return np.array_split(idx, k)


def r2(y_true, y_pred):
    return 1 - ((y_true - y_pred) ** 2).sum() / ((y_true - y_true.mean()) ** 2).sum()


folds = kfold_indices(len(X), 5)
scores = []
for k, val_idx in enumerate(folds):
    train_idx = np.concatenate([f for j, f in enumerate(folds) if j != k])
    model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 1)).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=2e-2)
    for epoch in range(40):
        X_train = torch.tensor(X[train_idx]).to(device)  # paef: expect redundant-tensor; ok cpu-then-move
        y_train = torch.tensor(y[train_idx]).unsqueeze(1).to(device)  # paef: expect redundant-tensor; ok cpu-then-move
        loss = nn.functional.mse_loss(model(X_train), y_train)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        pred = model(torch.tensor(X[val_idx], device=device)).squeeze(1).cpu().numpy()
    scores.append(r2(y[val_idx], pred))
    print(f"fold {k} final train loss {loss.item():.4f} r2 {scores[-1]:.4f}")
print(f"cv r2 {np.mean(scores):.4f} +- {np.std(scores):.4f}")
