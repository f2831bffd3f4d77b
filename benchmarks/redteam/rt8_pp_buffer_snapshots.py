# corpus: runnable
# Snapshots of module state taken with a host round trip each epoch, then compared with the state
# after the epoch: batch-norm running statistics and the batch counter (changed by forward in
# training mode, not by the optimizer), a buffer an EMA hook updates, a parameter changed by
# `clip_grad_norm_`/`opt.step()` read through `state_dict()`.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Sequential(nn.Linear(4, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 2)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
bn = model[1]
data = [(torch.randn(8, 4), torch.randint(0, 2, (8,))) for _ in range(3)]

drift = []
for epoch in range(3):
    before = torch.tensor(bn.running_mean.cpu().numpy()).to(device)
    var_before = torch.tensor(bn.running_var.cpu().tolist()).to(device)
    for x, y in data:
        loss = nn.functional.cross_entropy(model(x.to(device)), y.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
    drift.append(round((bn.running_mean - before).abs().sum().item(), 5))
    drift.append(round((bn.running_var - var_before).abs().sum().item(), 5))
print("bn drift", drift)


class EMA(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.register_buffer("avg", torch.zeros(dim))

    def forward(self, x):
        self.avg.mul_(0.9).add_(0.1 * x.mean(0))
        return x - self.avg


ema = EMA(4).to(device)
moves = []
for epoch in range(2):
    start = torch.tensor(ema.avg.cpu().numpy()).to(device)
    for x, _ in data:
        ema(x.to(device))
    moves.append(round((ema.avg - start).abs().sum().item(), 5))
print("ema moves", moves)

head = model[3].weight
steps = []
for epoch in range(2):
    w0 = torch.tensor(model.state_dict()["3.weight"].cpu().numpy()).to(device)
    for x, y in data:
        loss = nn.functional.cross_entropy(model(x.to(device)), y.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
    steps.append(round((head - w0).abs().sum().item(), 5))
print("head steps", steps)
