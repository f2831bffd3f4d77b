# corpus: runnable
# Activation checkpointing (`torch.utils.checkpoint.checkpoint`) in forwards: a block checkpointed
# only while grad is enabled (`torch.is_grad_enabled()`), a checkpointed block counting its
# recomputations, a dropout block checkpointed with `preserve_rng_state`, and evaluation loops
# (without no_grad) reading what the forwards record.
import torch
from torch import nn
from torch.utils.checkpoint import checkpoint

torch.set_num_threads(1)
torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"


class Counted(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.fc = nn.Linear(d, d)
        self.calls = 0

    def forward(self, x):
        self.calls += 1
        return torch.relu(self.fc(x))


class Net(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.inp = nn.Linear(8, d)
        self.mid = Counted(d)
        self.drop = nn.Dropout(0.2)
        self.out = nn.Linear(d, 1)
        self.paths = []

    def forward(self, x):
        h = self.inp(x)
        if torch.is_grad_enabled():
            h = checkpoint(self.mid, h, use_reentrant=False)
            self.paths.append("ckpt")
        else:
            h = self.mid(h)
            self.paths.append("plain")
        h = checkpoint(self.drop, h, use_reentrant=False, preserve_rng_state=True)
        return self.out(h)


model = Net().to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
data = [(torch.randn(12, 8), torch.randn(12, 1)) for _ in range(5)]
for x, y in data:
    x, y = x.to(device), y.to(device)
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("train calls", model.mid.calls, model.paths[-3:])

model.eval()
before = model.mid.calls
err = 0.0
for x, y in data:
    pred = model(x.to(device))
    err += (pred - y.to(device)).abs().mean().item()
print("eval", round(err, 6), model.mid.calls - before, model.paths[-5:])

model.train()
torch.manual_seed(3)
outs = []
for x, _ in data[:3]:
    outs.append(model(x.to(device)).sum().item())
print("train-mode forwards", [round(v, 6) for v in outs], model.mid.calls)
