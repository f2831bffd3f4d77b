# corpus: runnable
# Restarts that swap a fresh tensor into a parameter with torch.utils.swap_tensors: the module's
# parameter object takes the tensor's contents (and the tensor takes the old parameter's).
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
xs = torch.randn(6, 3)
ys = torch.randn(6, 2)
layer = nn.Linear(3, 2)
finals = []
for run in range(3):
    init = nn.Parameter(torch.full((2, 3), 0.2))
    torch.utils.swap_tensors(layer.weight, init)
    opt = torch.optim.SGD(layer.parameters(), lr=0.1)
    for x, y in zip(xs, ys):
        opt.zero_grad()
        (layer(x) - y).pow(2).mean().backward()
        opt.step()
    finals.append(round(layer.weight.sum().item(), 4))
print("swap", finals)

layer2 = nn.Linear(3, 2)
finals = []
for run in range(3):
    b = torch.zeros(2)
    with torch.no_grad():
        layer2.bias.set_(b)
    opt = torch.optim.SGD(layer2.parameters(), lr=0.1)
    for x, y in zip(xs, ys):
        opt.zero_grad()
        (layer2(x) - y).pow(2).mean().backward()
        opt.step()
    finals.append(round(layer2.bias.sum().item(), 4))
print("set_ under no_grad", finals)
