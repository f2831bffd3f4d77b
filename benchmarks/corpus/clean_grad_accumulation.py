# corpus: runnable
"""Gradient accumulation over micro-batches, loss kept on the device, logging on optimizer steps."""
import torch
import torch.nn as nn

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
accum, log_every = 4, 5
model = nn.Sequential(nn.Linear(12, 24), nn.GELU(), nn.Linear(24, 2)).to(device)
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
X, Y = torch.randn(640, 12, device=device), torch.randint(0, 2, (640,), device=device)

running = torch.zeros((), device=device)
updates = 0
for micro in range(80):
    xb, yb = X[micro * 8 : micro * 8 + 8], Y[micro * 8 : micro * 8 + 8]
    loss = nn.functional.cross_entropy(model(xb), yb) / accum
    loss.backward()
    running += loss.detach()
    if (micro + 1) % accum == 0:
        opt.step()
        opt.zero_grad(set_to_none=True)
        updates += 1
        if updates % log_every == 0:
            print(f"update {updates} loss {running.item() / log_every:.4f}")
            running.zero_()
