# corpus: runnable
"""Regression evaluation that gathers per-sample predictions with .item() into a list."""
import torch
import torch.nn as nn

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
X = torch.randn(200, 4, device=device)
y = X.pow(2).sum(1, keepdim=True)
for _ in range(40):
    loss = (model(X) - y).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()

model.eval()
preds, targets = [], []
with torch.no_grad():
    for i in range(0, 200, 40):
        out = model(X[i : i + 40])
        for p, t in zip(out, y[i : i + 40]):  # paef: expect elementwise-loop
            preds.append(p.item())  # paef: expect list-to-tensor; ok host-sync
            targets.append(t.item())  # paef: expect list-to-tensor; ok host-sync
preds_t, targets_t = torch.tensor(preds), torch.tensor(targets)
print(f"mae {(preds_t - targets_t).abs().mean().item():.4f}")
