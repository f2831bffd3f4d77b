# corpus: runnable
# Loss totals that start as NumPy scalars or 0-d arrays (float64, float32, a NumPy int) and grow
# by `.item()`: NumPy keeps its own scalar type (and its repr) where a tensor accumulator would
# not; the totals are printed with their repr and type.
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
data = [(torch.randn(4, 3), torch.randn(4, 1)) for _ in range(4)]

for epoch in range(2):
    total = np.float64(0)
    for x, y in data:
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    print("epoch", epoch, repr(total), type(total).__name__)

acc = np.zeros(())
for x, y in data:
    acc += model(x).sum().item()
print("0-d", repr(acc), type(acc).__name__)

hits = np.int64(0)
for x, y in data:
    hits += (model(x) > 0).sum().item()
print("hits", repr(hits), type(hits).__name__)

half = np.float16(0)
for x, y in data:
    half = half + model(x).mean().item()
print("half", repr(half), type(half).__name__)
