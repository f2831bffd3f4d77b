# corpus: runnable
"""A data summary helper that prints, called every epoch on unchanged data: never hoisted."""
import numpy as np
import torch
import torch.nn as nn

np.random.seed(0)
torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
raw = np.random.rand(100, 4).astype(np.float32)


def describe(a, epoch):
    q = np.percentile(a, [5, 50, 95], axis=0)
    print(f"epoch {epoch} feature medians {np.round(q[1], 3).tolist()}")
    return q


model = nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.from_numpy(raw).to(device)
y = x.sum(1, keepdim=True)
for epoch in range(3):
    q = describe(raw, epoch)  # paef: refuse cpu-function
    for i in range(0, 100, 25):
        loss = nn.functional.mse_loss(model(x[i : i + 25]), y[i : i + 25])
        opt.zero_grad()
        loss.backward()
        opt.step()
print(f"loss {loss.item():.4f}")
