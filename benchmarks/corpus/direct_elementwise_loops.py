# corpus: runnable
"""Per-element Python loops over tensors: a weighted score, a confusion count, a row clip."""
import torch
import torch.nn as nn

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
n_cls = 4
model = nn.Linear(6, n_cls).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
X = torch.randn(128, 6, device=device)
Y = torch.randint(0, n_cls, (128,), device=device)
w = torch.rand(128, device=device)

for epoch in range(3):
    logits = model(X)
    per_sample = nn.functional.cross_entropy(logits, Y, reduction="none")
    weighted = torch.zeros(128, device=device)
    for i in range(per_sample.shape[0]):  # paef: expect elementwise-loop
        weighted[i] = per_sample[i] * w[i]
    loss = weighted.mean()
    opt.zero_grad()
    loss.backward()
    opt.step()

with torch.no_grad():
    pred = model(X).argmax(1)
confusion = torch.zeros(n_cls, n_cls, dtype=torch.long)
for t, p in zip(Y, pred):  # paef: expect elementwise-loop
    confusion[t.item(), p.item()] += 1  # paef: ok host-sync
print("confusion", confusion.tolist())
print(f"loss {loss.item():.4f}")
