# corpus: runnable
# Red team 37 probe (after first contact, not blind): numbers taken with a cast of an arithmetic
# expression, `float(a - b)` / `int(a + b)`, while autograd records. The margins are then turned into a
# tensor and exported to NumPy, and the running total is reported.
import torch
import torch.nn as nn

torch.manual_seed(31)
torch.set_num_threads(1)

clf = nn.Linear(5, 3)
opt = torch.optim.SGD(clf.parameters(), lr=0.1)
data = torch.randn(8, 5)
labels = torch.randint(0, 3, (8,))

margins, gaps = [], []
running = 0.0
for i in range(data.shape[0]):
    logits = clf(data[i : i + 1])
    loss = nn.functional.cross_entropy(logits, labels[i : i + 1])
    margins.append(float(logits[0, 0] - logits[0, 2]))
    gaps.append(float(logits.max() - logits.min()))
    running += float(loss * 2 - logits.mean())
    opt.zero_grad()
    loss.backward()
    opt.step()

m = torch.tensor(margins)
g = torch.tensor(gaps)
print("margins", m)
print("gaps", g.requires_grad, g.numpy().round(6).tolist())
print("running", f"{running:.10f}")
