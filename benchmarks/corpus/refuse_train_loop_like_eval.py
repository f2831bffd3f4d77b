# corpus: runnable
"""train() and evaluate() share the loop shape; train's backward happens in a helper."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"


def step_fn(model, opt, x, y):
    loss = F.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


def run(model, batches, opt=None):
    total = torch.zeros((), device=device)
    for x, y in batches:  # paef: refuse eval-without-no-grad
        if opt is not None:
            total += step_fn(model, opt, x, y)
        else:
            total += F.mse_loss(model(x), y).detach()
    return total / len(batches)


def evaluate(model, batches):
    total = torch.zeros((), device=device)
    for x, y in batches:  # paef: expect eval-without-no-grad
        total += F.mse_loss(model(x), y).detach()
    return total / len(batches)


model = nn.Linear(4, 2).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = [(torch.randn(10, 4, device=device), torch.randn(10, 2, device=device)) for _ in range(6)]
for epoch in range(3):
    tr = run(model, data[:4], opt)
    va = evaluate(model, data[4:])
    print(f"epoch {epoch} train {tr.item():.4f} val {va.item():.4f}")
