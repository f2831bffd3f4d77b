# Public check 48, p05: ojaswital/Deep-Learning `survival_analysis/DeepSurv/train.py` + `model.py` + `utils.py`
# @ 9743b8c9 (no licence file stored): DeepSurv (a Cox proportional-hazards network), 5-fold cross-validation,
# concordance index per fold. A CPU program (no device anywhere).
# Changes to run on the CPU in seconds (the source's own lines are unchanged unless listed):
#  1. `model.py` and `utils.py` are pasted in (marked); `from model import ...`, `from utils import ...` dropped.
#  2. scikit-learn, lifelines, matplotlib are not installed and `data_preprocessing.py` reads a CSV not stored: the
#     stand-in block gives `KFold` (shuffled, seeded, same split sizes), `concordance_index` (Harrell's C, pairs in
#     Python), `load_and_preprocess()` (600 synthetic patients, 8 features, exponential times, ~70 % events); the
#     closing matplotlib plot is dropped; seeds.
#  3. `range(100)` epochs -> `range(12)`; `torch.save` of each fold kept (written in the working directory).
import torch
from torch.utils.data import Dataset, DataLoader
import torch.nn as nn
import numpy as np

# ---- stand-ins (sklearn KFold, lifelines concordance_index, data_preprocessing) ----
torch.manual_seed(0)
np.random.seed(0)
class KFold:
    def __init__(self, n_splits=5, shuffle=False, random_state=None):
        self.n_splits, self.rng = n_splits, np.random.RandomState(random_state)
    def split(self, X):
        idx = self.rng.permutation(len(X))
        for part in np.array_split(idx, self.n_splits):
            yield np.setdiff1d(idx, part), part
def concordance_index(times, scores, events):
    num = den = 0.0
    for i in range(len(times)):
        for j in range(len(times)):
            if events[i] and times[i] < times[j]:
                den += 1
                num += 1.0 if scores[i] < scores[j] else (0.5 if scores[i] == scores[j] else 0.0)
    return num / den
def load_and_preprocess():
    X = np.random.randn(600, 8).astype(np.float32)
    risk = X[:, 0] - 0.5 * X[:, 1] + 0.3 * X[:, 2] * X[:, 3]
    time = np.random.exponential(np.exp(-risk)).astype(np.float32)
    event = (np.random.rand(600) < 0.7).astype(np.float32)
    return X, time, event, [f"f{i}" for i in range(8)]
# ---- end of stand-ins ----

# ---- model.py
# Define DeepSurv model architecture
class DeepSurv(nn.Module):
    def __init__(self, in_features):
        super(DeepSurv, self).__init__()
        self.net = nn.Sequential(
            nn.Linear(in_features, 64),
            nn.ReLU(),
            nn.Dropout(0.3),
            nn.Linear(64, 32),
            nn.ReLU(),
            nn.Dropout(0.3),
            nn.Linear(32, 16),
            nn.ReLU(),
            nn.Linear(16, 1)
        )

    def forward(self, x):
        return self.net(x)

# ---- utils.py
# Negative partial log-likelihood loss from Cox Proportional Hazards model
def cox_ph_loss(risk_scores, times, events):
    order = torch.argsort(times, descending=True)
    risk_scores = risk_scores[order]
    events = events[order]

    log_cumsum = torch.logcumsumexp(risk_scores, dim=0)
    uncensored_likelihood = risk_scores - log_cumsum
    loss = -torch.sum(uncensored_likelihood * events) / torch.sum(events)
    return loss

# Concordance index as evaluation metric
def evaluate_concordance(model, x, times, events):
    with torch.no_grad():
        risks = model(torch.tensor(x, dtype=torch.float32)).squeeze().numpy()
    return concordance_index(times, -risks, events)

# ---- train.py
# Dataset wrapper for PyTorch DataLoader
class SurvivalDataset(Dataset):
    def __init__(self, x, time, event):
        self.x = torch.tensor(x, dtype=torch.float32)
        self.time = torch.tensor(time, dtype=torch.float32)
        self.event = torch.tensor(event, dtype=torch.float32)
    def __len__(self):
        return len(self.x)
    def __getitem__(self, idx):
        return self.x[idx], self.time[idx], self.event[idx]

# Load data
X, y_time, y_event, features = load_and_preprocess()

kf = KFold(n_splits=5, shuffle=True, random_state=42)
fold = 0
concordances = []

# For plotting concordance index
fold_ids = []
fold_scores = []

# 5-fold cross-validation
for train_idx, val_idx in kf.split(X):
    fold += 1
    print(f"\nFold {fold}")
    X_train, X_val = X[train_idx], X[val_idx]
    ytime_train, ytime_val = y_time[train_idx], y_time[val_idx]
    yevent_train, yevent_val = y_event[train_idx], y_event[val_idx]

    train_ds = SurvivalDataset(X_train, ytime_train, yevent_train)
    val_ds = SurvivalDataset(X_val, ytime_val, yevent_val)
    train_dl = DataLoader(train_ds, batch_size=128, shuffle=True)

    model = DeepSurv(X.shape[1])
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

    model.train()
    for epoch in range(12):
        for xb, t, e in train_dl:
            optimizer.zero_grad()
            pred = model(xb).squeeze()
            loss = cox_ph_loss(pred, t, e)
            loss.backward()
            optimizer.step()

        if epoch % 10 == 0:
            print(f"Epoch {epoch} | Loss: {loss.item():.4f}")

    # Save model per fold
    torch.save(model.state_dict(), f"model_fold{fold}.pth")

    # Evaluate concordance index
    concordance = evaluate_concordance(model, X_val, ytime_val, yevent_val)
    print(f"Concordance index (Fold {fold}): {concordance:.4f}")
    concordances.append(concordance)
    fold_ids.append(fold)
    fold_scores.append(concordance)

# Average concordance index
mean_concordance = sum(concordances)/len(concordances)
print("\nMean Concordance Index:", mean_concordance)
