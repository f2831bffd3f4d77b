# corpus: runnable
# Loops that call modules but are the forward pass of training: a helper running a stack of
# layers, a method of a model looping over its blocks, an unrolled recurrent cell, a loop over
# an ensemble whose summed outputs are trained later, a loop in a `torch.jit.script`-free
# recurrent `step` function returned through a closure.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(3)]).to(device)
opt = torch.optim.SGD(layers.parameters(), lr=0.1)
data = [(torch.randn(2, 4), torch.randn(2, 4)) for _ in range(3)]


def run_stack(blocks, h):
    for block in blocks:
        h = torch.tanh(block(h))
    return h


for xb, yb in data:
    opt.zero_grad()
    loss = nn.functional.mse_loss(run_stack(layers, xb.to(device)), yb.to(device))
    loss.backward()
    opt.step()
print("stack", round(loss.item(), 6))


class Deep(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([nn.Linear(4, 4) for _ in range(2)])

    def encode(self, x):
        for blk in self.blocks:
            x = x + blk(x)
        return x

    def forward(self, x):
        return self.encode(x).mean()


deep = Deep().to(device)
dopt = torch.optim.Adam(deep.parameters(), lr=0.01)
for xb, _ in data:
    dopt.zero_grad()
    deep(xb.to(device)).backward()
    dopt.step()
print("encode", deep.blocks[0].weight.detach().sum().round(decimals=5).item())

cell = nn.GRUCell(4, 4).to(device)
copt = torch.optim.SGD(cell.parameters(), lr=0.05)


def unroll(seq):
    h = torch.zeros(2, 4, device=device)
    outs = []
    for x_t in seq:
        h = cell(x_t, h)
        outs.append(h)
    return torch.stack(outs)


seq = torch.randn(5, 2, 4).to(device)
for _ in range(2):
    copt.zero_grad()
    unroll(seq).pow(2).mean().backward()
    copt.step()
print("unroll", cell.weight_hh.detach().sum().round(decimals=5).item())

ensemble = [nn.Linear(4, 1).to(device) for _ in range(3)]
eopt = torch.optim.SGD([p for m in ensemble for p in m.parameters()], lr=0.1)
xb, yb = data[0]
preds = []
for member in ensemble:
    preds.append(member(xb.to(device)))
mean_pred = torch.stack(preds).mean(0)
eopt.zero_grad()
nn.functional.mse_loss(mean_pred, yb[:, :1].to(device)).backward()
eopt.step()
print("ensemble", [round(m.bias.item(), 5) for m in ensemble])


def make_step(module):
    def step(xs):
        outs = []
        for x in xs:
            outs.append(module(x))
        return outs
    return step


stepper = make_step(layers[0])
outs = stepper([xb.to(device) for xb, _ in data])
sum(o.sum() for o in outs).backward()
print("closure", layers[0].bias.grad.round(decimals=4).tolist())
