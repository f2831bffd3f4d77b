# corpus: runnable
"""Tensors rebuilt from state the loop itself changes: a growing count table, an in-place accumulator."""
import torch
import torch.nn as nn

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
n_cls = 4
counts = [1] * n_cls
model = nn.Linear(6, n_cls).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
X, Y = torch.randn(200, 6, device=device), torch.randint(0, n_cls, (200,), device=device)

for i in range(0, 200, 20):
    yb = Y[i : i + 20]
    for c in yb.tolist():  # paef: ok host-sync
        counts[c] += 1
    inv_freq = torch.tensor(counts, dtype=torch.float, device=device).reciprocal()  # paef: refuse redundant-tensor
    grad_acc = torch.zeros(n_cls, device=device)  # paef: refuse redundant-tensor
    grad_acc.index_add_(0, yb, torch.ones(yb.numel(), device=device))  # paef: ok redundant-tensor
    loss = nn.functional.cross_entropy(model(X[i : i + 20]), yb, weight=inv_freq * grad_acc.clamp(min=1))
    opt.zero_grad()
    loss.backward()
    opt.step()
print("counts", counts)
print(f"loss {loss.item():.4f}")
