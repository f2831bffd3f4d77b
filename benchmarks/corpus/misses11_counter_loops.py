# corpus: runnable
"""Spiral data built row by row with a hand-carried counter (NYU-DLSP20 style), a `while` loop
that clips tensor rows one at a time, and a training loop over the result. Near-misses: a counter
over a Python list, a `while` over host numbers, a loop that reads whole rows into a model."""
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
N, D, C = 200, 2, 3

X = torch.zeros(N * C, D).to(device)  # paef: ok cpu-then-move
y = torch.zeros(N * C, dtype=torch.long).to(device)  # paef: ok cpu-then-move
for c in range(C):
    index = 0
    t = torch.linspace(0, 1, N)  # paef: ok redundant-tensor
    inner_var = torch.linspace((2 * math.pi / C) * c, (2 * math.pi / C) * (2 + c), N) + torch.randn(N) * 0.2
    for ix in range(N * c, N * (c + 1)):  # paef: expect elementwise-loop
        X[ix] = t[index] * torch.FloatTensor((math.sin(inner_var[index]), math.cos(inner_var[index])))
        y[ix] = c
        index += 1

scores = torch.randn(N * C, device=device)
i = 0
while i < scores.shape[0]:  # paef: expect elementwise-loop
    scores[i] = scores[i].clamp(-1.0, 1.0)
    i += 1

names = ["a", "b", "c"]
labels = []
k = 0
for name in names:
    labels.append(f"{k}:{name}")
    k += 1

steps, lr = 0, 1.0
while lr > 0.05:
    lr *= 0.5
    steps += 1

model = nn.Sequential(nn.Linear(D, 64), nn.ReLU(), nn.Linear(64, C)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(200):
    logits = model(X)
    loss = nn.functional.cross_entropy(logits, y) + 1e-3 * scores.mean().abs()
    opt.zero_grad()
    loss.backward()
    opt.step()

row = 0
with torch.no_grad():
    preds = []
    while row < X.shape[0]:
        preds.append(model(X[row : row + 100]).argmax(1))
        row += 100
    acc = (torch.cat(preds) == y).float().mean()
print(f"loss {loss.item():.4f} acc {acc.item():.3f} labels {labels} steps {steps}")
