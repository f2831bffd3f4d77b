# corpus: runnable
# Restarts from a fixed initial vector that becomes the parameters' storage: the tensor handed to
# `vector_to_parameters` (each parameter becomes a view of it), `param.data = w0`,
# `load_state_dict(..., assign=True)`, `torch.nn.utils.parametrize` and an SGD step then change
# the "constant" through those aliases. Hoisted, each restart starts where the last one stopped.
import torch
import torch.nn as nn
from torch.nn.utils import parameters_to_vector, vector_to_parameters

torch.manual_seed(0)
torch.set_num_threads(1)
xs, ys = torch.randn(8, 3), torch.randn(8, 1)
model = nn.Linear(3, 1)
n = sum(p.numel() for p in model.parameters())


def fit(m, steps=3):
    opt = torch.optim.SGD(m.parameters(), lr=0.1)
    for _ in range(steps):
        opt.zero_grad()
        nn.functional.mse_loss(m(xs), ys).backward()
        opt.step()
    return nn.functional.mse_loss(m(xs), ys).item()


restarts = []
for trial in range(3):
    flat = torch.zeros(n)
    with torch.no_grad():
        vector_to_parameters(flat, model.parameters())
    restarts.append(round(fit(model), 5))
    flat_now = parameters_to_vector(model.parameters())
print("vector restarts", restarts, round(flat_now.sum().item(), 5))

lin = nn.Linear(3, 1, bias=False)
runs = []
for trial in range(3):
    w0 = torch.full((1, 3), 0.1)
    lin.weight.data = w0
    runs.append(round(fit(lin), 5))
print("data restarts", runs)

lin2 = nn.Linear(3, 1)
runs2 = []
for trial in range(3):
    init = {"weight": torch.zeros(1, 3), "bias": torch.zeros(1)}
    lin2.load_state_dict(init, assign=True)
    runs2.append(round(fit(lin2), 5))
print("assign restarts", runs2)
