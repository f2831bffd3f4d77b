# corpus: runnable
# Constants in comprehensions and walrus targets: a list comprehension that builds one tensor per
# element then changes them, a walrus in a comprehension keeping the last one, a nested
# comprehension, a dict comprehension of buffers, a generator expression consumed twice.
import torch

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
xs = torch.randn(3, 2)

bufs = [torch.zeros(2, device=device) for _ in range(3)]
bufs[0].add_(1.0)
print("listcomp", [b.sum().item() for b in bufs])

outs = [(last := torch.ones(2, device=device)) * r for r in xs]
last.mul_(4.0)
print("walrus", [o.sum().item() for o in outs], last.tolist())

grid = [[torch.zeros(1, device=device) for _ in range(2)] for _ in range(2)]
grid[0][0].add_(3.0)
print("nested", [[g.item() for g in row] for row in grid])

table = {k: torch.zeros(2, device=device) for k in ("a", "b")}
table["a"].add_(2.0)
print("dictcomp", {k: v.tolist() for k, v in table.items()})

res = []
for r in xs:
    m = [torch.ones(2, device=device) for _ in range(2)]
    m[0].mul_(r[0])
    res.append(round(sum(t.sum().item() for t in m), 5))
print("comp in loop", res)

res = []
for step in range(3):
    ws = list(torch.zeros(2, device=device) + k for k in range(2))
    ws[0].add_(step)
    res.append([w.tolist() for w in ws])
print("genexp", res)
