"""A tabular classifier in a Kaggle notebook's style: a DataFrame cleaned once, a Dataset reading
one pandas row per sample, a validation pass through the same epoch function switched by a flag,
and test predictions gathered by a comprehension after `.eval()`."""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
np.random.seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
raw = pd.DataFrame({"age": np.random.randint(18, 80, 240).astype(float), "fare": np.random.rand(240) * 100,
                    "cls": np.random.randint(1, 4, 240), "survived": np.random.randint(0, 2, 240)})
raw["fare"] = (raw["fare"] - raw["fare"].mean()) / raw["fare"].std()
raw["age"] = raw["age"] / raw["age"].max()
FEATURES = ["age", "fare", "cls"]
train_df, val_df, test_df = raw.iloc[:160], raw.iloc[160:200], raw.iloc[200:]


class Passengers(Dataset):
    def __init__(self, df):
        self.df = df.reset_index(drop=True)

    def __len__(self):
        return len(self.df)

    def __getitem__(self, idx):
        row = self.df.iloc[idx]  # paef: expect dict-as-list
        features = torch.tensor(row[FEATURES].values.astype(np.float32))
        label = torch.tensor(row["survived"], dtype=torch.float32)
        return features, label


model = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Dropout(0.1), nn.Linear(16, 1)).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
criterion = nn.BCEWithLogitsLoss()
train_loader = DataLoader(Passengers(train_df), batch_size=32, shuffle=True)  # paef: ok pageable-transfer; expect sync-dataloader
val_loader = DataLoader(Passengers(val_df), batch_size=32)  # paef: ok pageable-transfer; ok sync-dataloader
test_loader = DataLoader(Passengers(test_df), batch_size=32)


def run_epoch(loader, training=True):
    model.train(training)
    total, correct = 0.0, 0
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        logits = model(x).squeeze(1)
        loss = criterion(logits, y)
        if training:
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        total += loss.item() * len(y)  # paef: expect host-sync
        correct += ((logits > 0).float() == y).sum().item()  # paef: expect host-sync
    return total / len(loader.dataset), correct / len(loader.dataset)


for epoch in range(3):
    train_loss, train_acc = run_epoch(train_loader, training=True)
    val_loss, val_acc = run_epoch(val_loader, training=False)  # paef: expect eval-without-no-grad
    print(f"{epoch} {train_loss:.4f} {train_acc:.3f} {val_loss:.4f} {val_acc:.3f}")

model.eval()
probs = [torch.sigmoid(model(x.to(device))).squeeze(1) for x, _ in test_loader]  # paef: expect eval-without-no-grad
print(f"{torch.cat(probs).mean().item():.4f}")
