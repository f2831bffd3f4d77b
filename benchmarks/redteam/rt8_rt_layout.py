# corpus: runnable
# Constants built per iteration and then viewed or changed in ways that depend on their layout or
# storage: `resize_`, `t_()`, `unsqueeze_`, `as_strided`, an alias made from `untyped_storage()`, `set_`,
# writes through `.view` of a transpose.
import torch

torch.manual_seed(0)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"
xs = torch.randn(3, 4, device=device)

shapes = []
for x in xs:
    buf = torch.zeros(4, device=device)
    buf.resize_(2, 2)
    shapes.append(tuple(buf.shape))
print("resize_", shapes)

tr = []
for x in xs:
    m = torch.zeros(2, 3, device=device)
    m.t_()
    tr.append(tuple(m.shape))
print("t_", tr)

shared = []
for x in xs:
    scratch = torch.zeros(4, device=device)
    alias = torch.empty(0, device=device).set_(scratch.untyped_storage())
    alias.add_(x)
    shared.append(round(scratch.sum().item(), 5))
print("storage alias", shared)

wins = []
for x in xs:
    base = torch.arange(6.0, device=device)
    win = base.as_strided((2, 2), (1, 2))
    win.add_(x[:1])
    wins.append(round(base.sum().item(), 5))
print("as_strided", wins)

views = []
for x in xs:
    grid = torch.zeros(2, 3, device=device)
    grid.t().contiguous().view(-1).add_(1.0)
    flat = grid.view(-1)
    flat[0] = x[0]
    views.append(round(grid.sum().item(), 5))
print("views", views)

sets = []
for x in xs:
    holder = torch.zeros(2, device=device)
    holder.set_(x.clone())
    sets.append(round(holder.sum().item(), 5))
print("set_", sets)
