# corpus: runnable
"""Classifier whose logging only syncs every N steps, with a final checksum."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
log_every = 20

model = nn.Sequential(nn.Linear(16, 64), nn.GELU(), nn.Linear(64, 4)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
data = torch.randn(512, 16, device=device)
labels = (data[:, :4].argmax(dim=1)).to(device)

for step in range(60):
    idx = torch.randint(0, data.shape[0], (32,), device=device)
    logits = model(data[idx])
    loss = F.cross_entropy(logits, labels[idx])
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % log_every == 0:
        print(f"step {step:3d} loss {loss.item():.4f}")

with torch.no_grad():
    acc = (model(data).argmax(1) == labels).float().mean()
print(f"accuracy {acc.item():.4f}")
print(f"checksum {sum(p.sum() for p in model.parameters()).item():.4f}")
