# corpus: runnable
"""Test-time adaptation: a loop over the validation set that trains through a helper."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"


def adapt_step(model, optimizer, x):
    """Entropy minimisation on one unlabelled batch (TENT-style)."""
    probs = model(x).softmax(1)
    loss = -(probs * probs.clamp_min(1e-8).log()).sum(1).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return probs


model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 3)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
val_x = torch.randn(120, 8, device=device)
val_y = torch.randint(0, 3, (120,), device=device)

model.eval()
correct = torch.zeros((), dtype=torch.long, device=device)
for i in range(0, 120, 30):  # paef: refuse eval-without-no-grad
    probs = adapt_step(model, optimizer, val_x[i : i + 30])
    correct += (probs.argmax(1) == val_y[i : i + 30]).sum()
print(f"adapted acc {correct.item() / 120:.4f}")
print(f"checksum {sum(p.sum() for p in model.parameters()).item():.4f}")
