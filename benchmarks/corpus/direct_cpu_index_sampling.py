# corpus: runnable
"""Mini-batches sampled with CPU index tensors from data that lives on the device."""
import torch
import torch.nn as nn

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
N, B = 500, 50
X = torch.randn(N, 6, device=device)
Y = (X.sum(1) > 0).long()
model = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 2)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)

for it in range(60):
    idx = torch.randperm(N)[:B].to(device)  # paef: expect cpu-then-move; refuse cpu-then-move; refuse redundant-tensor
    loss = nn.functional.cross_entropy(model(X[idx]), Y[idx])
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"loss {loss.item():.4f}")
