# corpus: runnable
"""Early stopping on a per-epoch validation loss, keeping the best weights."""
import copy

import torch
import torch.nn as nn

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 1)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=2e-2)
X = torch.randn(300, 4, device=device)
y = X[:, :1] ** 2 + 0.1 * torch.randn(300, 1, device=device)
best, best_state, patience, bad = float("inf"), None, 3, 0

for epoch in range(30):
    model.train()
    for i in range(0, 240, 40):
        loss = nn.functional.mse_loss(model(X[i : i + 40]), y[i : i + 40])
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        val = nn.functional.mse_loss(model(X[240:]), y[240:]).item()
    if val < best - 1e-4:
        best, best_state, bad = val, copy.deepcopy(model.state_dict()), 0
    else:
        bad += 1
        if bad >= patience:
            break
model.load_state_dict(best_state)
print(f"stopped at epoch {epoch} best val {best:.4f}")
