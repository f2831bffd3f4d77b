# corpus: runnable
# Restarts that build a fresh parameter from a factory inside the restart loop: `nn.Parameter(t)`
# and `register_buffer` keep the factory's storage (no copy), `vector_to_parameters` and
# `load_state_dict(assign=True)` make the parameters views of it, `.set_` adopts it. If the
# factory were built once before the loop, every restart would start from the trained values.
import torch
import torch.nn as nn
from torch.nn.utils import vector_to_parameters

torch.manual_seed(0)
torch.set_num_threads(1)
xs, ys = torch.randn(16, 3), torch.randn(16, 1)


class Affine(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.ones(3, 1))
        self.register_buffer("calls", torch.zeros(1))

    def forward(self, x):
        self.calls += 1
        return x @ self.w


def fit(m, steps=4, lr=0.1):
    opt = torch.optim.SGD(m.parameters(), lr=lr)
    for _ in range(steps):
        opt.zero_grad()
        nn.functional.mse_loss(m(xs), ys).backward()
        opt.step()
    return round(nn.functional.mse_loss(m(xs), ys).item(), 5)


model = Affine()
trials = []
for trial in range(3):
    model.w = nn.Parameter(torch.full((3, 1), 0.25))
    model.register_buffer("calls", torch.zeros(1))
    trials.append((fit(model), int(model.calls.item())))
print("parameter restarts", trials)

lin = nn.Linear(3, 1)
n = sum(p.numel() for p in lin.parameters())
vec_runs = []
for trial in range(3):
    with torch.no_grad():
        vector_to_parameters(torch.zeros(n), lin.parameters())
    vec_runs.append(fit(lin))
print("vector restarts", vec_runs)

lin2 = nn.Linear(3, 1)
assign_runs = []
for trial in range(3):
    lin2.load_state_dict({"weight": torch.zeros(1, 3), "bias": torch.ones(1)}, assign=True)
    assign_runs.append(fit(lin2))
print("assign restarts", assign_runs)

lin3 = nn.Linear(3, 1, bias=False)
set_runs = []
for trial in range(3):
    with torch.no_grad():
        lin3.weight.set_(torch.full((1, 3), -0.5))
    set_runs.append(fit(lin3))
print("set restarts", set_runs)

lin4 = nn.Linear(3, 1, bias=False)
data_runs = []
for trial in range(3):
    lin4.weight.data = torch.full((1, 3), 0.5)
    data_runs.append(fit(lin4))
print("data restarts", data_runs)
