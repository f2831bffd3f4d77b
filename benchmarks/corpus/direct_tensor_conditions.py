# corpus: runnable
"""Control flow on device tensors every step: NaN checks, a tolerance loop, a clipping branch."""
import torch
import torch.nn as nn

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(8, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
X, y = torch.randn(200, 8, device=device), torch.randn(200, 1, device=device)

steps = 0
for epoch in range(5):
    for i in range(0, 200, 25):
        loss = nn.functional.mse_loss(model(X[i : i + 25]), y[i : i + 25])
        if torch.isnan(loss):  # paef: expect host-sync
            raise RuntimeError("diverged")
        opt.zero_grad()
        loss.backward()
        grad_norm = torch.norm(torch.stack([p.grad.norm() for p in model.parameters()]))
        if grad_norm > 5.0:  # paef: expect host-sync
            for p in model.parameters():
                p.grad.mul_(5.0 / grad_norm)
        opt.step()
        steps += 1
print(f"steps {steps} loss {loss.item():.4f}")
