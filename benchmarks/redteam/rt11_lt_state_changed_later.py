# corpus: runnable
# `.item()` lists of tensors that library code changes in place after the read: a 0-d
# temperature parameter the optimizer steps, batch norm's `num_batches_tracked` counter and a
# running-mean entry its forward updates, a 0-d buffer a helper doubles through `.mul_`.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class Scaled(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 2)
        self.temperature = nn.Parameter(torch.tensor(1.0))
        self.register_buffer("gain", torch.tensor(1.0))

    def forward(self, x):
        return self.lin(x) / self.temperature


model = Scaled()
bn = nn.BatchNorm1d(3)
opt = torch.optim.SGD(model.parameters(), lr=0.2)
xs = torch.randn(5, 4, 3)


def bump(t):
    t.mul_(2.0)


temps = []
counts = []
means = []
gains = []
for x in xs:
    h = bn(x)
    loss = model(h).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    temps.append(model.temperature.item())
    counts.append(bn.num_batches_tracked.item())
    means.append(bn.running_mean[0].item())
    gains.append(model.gain.item())
    bump(model.gain)
print("temps", [round(v, 4) for v in torch.tensor(temps).tolist()])
print("counts", torch.tensor(counts).tolist())
print("means", [round(v, 4) for v in torch.tensor(means).tolist()])
print("gains", torch.tensor(gains).tolist())
