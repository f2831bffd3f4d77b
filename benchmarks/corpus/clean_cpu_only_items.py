# corpus: runnable
"""A CPU-only script (nothing is ever put on a device): per-step .item() costs no sync here."""
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(6, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
X = torch.randn(100, 6)
y = X[:, :1] * 2 - X[:, 1:2]

losses = []
for step in range(50):
    loss = ((model(X) - y) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
best = min(losses)
print(f"best {best:.4f} last {losses[-1]:.4f} mean {sum(losses) / len(losses):.4f}")
