# corpus: runnable
"""A logging helper called on every step (no interval), formatting tensors on the host."""
import torch
import torch.nn as nn

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
history = []


def log_step(step, loss, grad_norm):
    history.append((step, round(loss.item(), 4), round(float(grad_norm), 4)))  # paef: expect host-sync


model = nn.Sequential(nn.Linear(8, 8), nn.Tanh(), nn.Linear(8, 1)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
X = torch.randn(128, 8, device=device)
y = X.prod(dim=1, keepdim=True)
for step in range(40):
    loss = nn.functional.mse_loss(model(X), y)
    opt.zero_grad()
    loss.backward()
    gn = nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    log_step(step, loss, gn)
print("last", history[-1])
