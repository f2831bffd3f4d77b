# corpus: runnable
"""Epoch losses summed and kept as tensors with their autograd graphs."""
import torch
import torch.nn as nn

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Sequential(nn.Linear(5, 20), nn.Tanh(), nn.Linear(20, 1)).to(device)
opt = torch.optim.RMSprop(model.parameters(), lr=1e-2)
crit = nn.L1Loss()
X = torch.randn(300, 5, device=device)
y = torch.sin(X.sum(1, keepdim=True))

all_losses = []
for epoch in range(3):
    total_loss = 0
    for i in range(0, 300, 30):
        pred = model(X[i : i + 30])
        loss = crit(pred, y[i : i + 30])
        opt.zero_grad()
        loss.backward()
        opt.step()
        total_loss += loss  # paef: expect-fix graph-retention
        all_losses.append(loss)  # paef: expect graph-retention
    print(f"epoch {epoch} mean loss {total_loss.item() / 10:.4f}")
print(f"overall {torch.stack(all_losses).mean().item():.4f}")
