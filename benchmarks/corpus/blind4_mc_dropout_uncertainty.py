# corpus: runnable
"""Monte-Carlo dropout for predictive uncertainty: a regressor trained as usual, then
evaluated with dropout left active (model.train() under no_grad) by stacking T stochastic
forward passes of the same batch; mean, variance and a calibration count per batch. Every
pass draws new dropout masks: they are not repeats of one computation."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
X = torch.linspace(-3, 3, 600).unsqueeze(1)
Y = torch.sin(2 * X) + 0.1 * X ** 2 + 0.15 * torch.randn_like(X)
perm = torch.randperm(600)
train_ds = TensorDataset(X[perm[:480]], Y[perm[:480]])
test_ds = TensorDataset(X[perm[480:]], Y[perm[480:]])
train_loader = DataLoader(train_ds, batch_size=32, shuffle=True)  # paef: ok pageable-transfer
test_loader = DataLoader(test_ds, batch_size=40)  # paef: ok pageable-transfer


class MCDropoutNet(nn.Module):
    def __init__(self, p=0.1):
        super().__init__()
        self.fc1, self.fc2, self.fc3 = nn.Linear(1, 64), nn.Linear(64, 64), nn.Linear(64, 1)
        self.p = p

    def forward(self, x):
        x = F.dropout(F.relu(self.fc1(x)), self.p, self.training)
        x = F.dropout(F.relu(self.fc2(x)), self.p, self.training)
        return self.fc3(x)


model = MCDropoutNet().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=5e-3, weight_decay=1e-5)
for epoch in range(20):
    model.train()
    total = torch.zeros(1, device=device)
    for xb, yb in train_loader:
        xb, yb = xb.to(device), yb.to(device)
        loss = F.mse_loss(model(xb), yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.detach() * len(xb)
    if epoch % 5 == 4:
        print(f"epoch {epoch} mse {total.item() / len(train_ds):.4f}")

T = 30
model.train()
sq_err, inside, n = 0.0, 0, 0
with torch.no_grad():
    for xb, yb in test_loader:
        xb, yb = xb.to(device), yb.to(device)
        samples = torch.stack([model(xb) for _ in range(T)])
        mean, std = samples.mean(0), samples.std(0)
        sq_err += ((mean - yb) ** 2).sum().item()  # paef: ok host-sync
        inside += ((yb - mean).abs() < 2 * std + 0.3).sum().item()  # paef: ok host-sync
        n += len(yb)
print(f"mc-dropout rmse {(sq_err / n) ** 0.5:.4f} coverage {inside / n:.3f}")
