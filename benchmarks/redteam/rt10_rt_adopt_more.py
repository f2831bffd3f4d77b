# corpus: runnable
# Restarts whose initial values become parameter memory through forms the keyword `assign=True`
# does not show: `assign` passed positionally, through `**options`, and `set_` called as an
# unbound method. The optimizer then trains the constant itself.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
xs, ys = torch.randn(12, 3), torch.randn(12, 1)


def fit(m):
    opt = torch.optim.SGD(m.parameters(), lr=0.1)
    for _ in range(3):
        opt.zero_grad()
        nn.functional.mse_loss(m(xs), ys).backward()
        opt.step()
    return round(nn.functional.mse_loss(m(xs), ys).item(), 5)


options = {"strict": True, "assign": True}
a, b, c = nn.Linear(3, 1, bias=False), nn.Linear(3, 1, bias=False), nn.Linear(3, 1, bias=False)
runs = []
for trial in range(3):
    a.load_state_dict({"weight": torch.full((1, 3), 0.3)}, True, True)
    b.load_state_dict({"weight": torch.full((1, 3), -0.2)}, **options)
    with torch.no_grad():
        torch.Tensor.set_(c.weight, torch.ones(1, 3))
    runs.append((fit(a), fit(b), fit(c)))
print(runs)
