# corpus: runnable
# Red team 39 probe (not blind, after first contact): running host-sync totals whose operands are powers,
# roots, absolute values, a division by a step count and math.sqrt of `.item()` (Python pow vs torch sqrt /
# repeated multiply, complex results of negative bases, ZeroDivisionError vs inf).
import math
import torch
import torch.nn as nn

torch.manual_seed(39)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(3, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(40, 3, device=device)
y = torch.randn(40, 1, device=device)
a = b = c = d = e = f = g = 0.0
for s in range(0, 40, 4):
    out = model(x[s : s + 4])
    loss = (out - y[s : s + 4]).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    a += loss.item() ** 0.5
    b += loss.item() ** 3
    c += out.mean().item() ** 2
    d += abs(out.mean().item())
    e += loss.item() / (s // 4)  if s else 0.0
    f += math.sqrt(loss.item())
    g += loss.item() ** -1
print([repr(v) for v in (a, b, c, d, e, f, g)])
