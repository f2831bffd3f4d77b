# corpus: runnable
# Device training loops with `.item()` totals whose Python type is read after the loop:
# integer division, `is`, dict keys, %d, `range`, json, `round`, `isinstance`, `is_integer`, a
# bool accumulated by `or`, a count added to a float start, an int total divided by 3.
import json
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(4, 3).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = [(torch.randn(16, 4), torch.randint(0, 3, (16,))) for _ in range(4)]
crit = nn.CrossEntropyLoss()

correct = 0
fsum = 0.0
bad = False
n_pos = 0
m = 0
flags = 0
neg = 0
for x, y in data:
    x, y = x.to(device), y.to(device)
    out = model(x)
    loss = crit(out, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    p = out.argmax(1)
    correct += (p == y).sum().item()
    fsum += (p == y).sum().item()
    bad = bad or (p < 0).any().item()
    n_pos += (y > 0).sum().item() / 3
    m += p.max().item()
    flags += (p == 2).any().item()
    neg -= p.sum().item()
print("A", correct // 3, correct % 5, "%d hits" % correct, list(range(correct))[-1:])
print("A json", json.dumps({"correct": correct}))
print("A key", {correct: "x"}.get(correct), correct is not None, isinstance(correct, int))
print("B", repr(fsum), fsum.is_integer(), json.dumps(fsum))
print("C", bad, bad is False, json.dumps(bad))
print("D", repr(n_pos), round(n_pos, 2))
print("E", repr(m), "%d" % m, f"{m:03d}")
print("F", repr(flags), type(flags).__name__)
print("G", repr(neg), neg // 7)
