# corpus: runnable
# Second wave: snapshots of module state reached through names and accessors rather than an
# attribute chain: a buffer bound to a name first, `state_dict()` kept in a variable (its
# entries are the live tensors), `get_buffer`, `named_buffers()`, `getattr`, a parameter from
# `list(model.parameters())` then stepped by the optimizer.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Sequential(nn.Linear(4, 4), nn.BatchNorm1d(4), nn.Linear(4, 2)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = [(torch.randn(8, 4), torch.randint(0, 2, (8,))) for _ in range(3)]
rm = model[1].running_mean
sd = model.state_dict()
first = list(model.parameters())[0]


def train_epoch():
    for x, y in data:
        loss = nn.functional.cross_entropy(model(x.to(device)), y.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()


drift = []
for epoch in range(2):
    a = torch.tensor(rm.cpu().numpy()).to(device)
    b = torch.tensor(sd["1.running_var"].cpu().numpy()).to(device)
    c = torch.tensor(model.get_buffer("1.running_mean").cpu().numpy()).to(device)
    d = torch.tensor(dict(model.named_buffers())["1.running_var"].cpu().numpy()).to(device)
    e = torch.tensor(getattr(model[1], "running_mean").cpu().numpy()).to(device)
    f = torch.tensor(first.detach().cpu().numpy()).to(device)
    train_epoch()
    drift.append([round((t - u).abs().sum().item(), 5) for t, u in (
        (rm, a), (sd["1.running_var"], b), (model[1].running_mean, c), (model[1].running_var, d),
        (model[1].running_mean, e), (first, f))])
print(drift)
