# corpus: runnable
# Per-batch `.item()` values collected in lists and turned into tensors, where the list is
# also read as Python numbers elsewhere: a helper defined after its use, a dict dumped to
# JSON, `**kwargs`, `"%.4f" %`, a `finally` block, a lambda in a dict, a generator.
import json

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
data = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(5)]


def train_epoch():
    losses = []
    for xb, yb in data:
        loss = nn.functional.mse_loss(model(xb.to(device)), yb.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    mean = torch.tensor(losses).mean()
    show(losses)
    return mean


def show(values):
    print(" ".join("%.4f" % v for v in values))


print("mean", round(train_epoch().item(), 5))

history = {"loss": []}
for xb, yb in data:
    loss = nn.functional.mse_loss(model(xb.to(device)), yb.to(device))
    opt.zero_grad()
    loss.backward()
    opt.step()
    history["loss"].append(loss.item())
print(round(torch.tensor(history["loss"]).std().item(), 5))
print(json.dumps(history)[:40])


def log_metrics(**metrics):
    return {k: round(sum(v) / len(v), 5) for k, v in metrics.items()}


grads = []
for xb, yb in data:
    loss = nn.functional.mse_loss(model(xb.to(device)), yb.to(device))
    opt.zero_grad()
    loss.backward()
    grads.append(model.weight.grad.norm().item())
    opt.step()
print("max grad", round(torch.tensor(grads).max().item(), 5))
print(log_metrics(grad=grads))

vals = []
try:
    for xb, yb in data:
        out = model(xb.to(device))
        vals.append(out.mean().item())
    print("vals", round(torch.tensor(vals).sum().item(), 5))
finally:
    print("last", "%.5f" % vals[-1])

FORMAT = {"csv": lambda xs: ",".join(f"{x:.3f}" for x in xs)}
accs = []
for xb, yb in data:
    out = model(xb.to(device))
    accs.append((out > yb.to(device)).float().mean().item())
print(torch.tensor(accs).mean().item(), FORMAT["csv"](accs))


def stream():
    errs = []
    for xb, yb in data:
        out = model(xb.to(device))
        errs.append((out - yb.to(device)).abs().max().item())
        yield errs
    print("errs", torch.tensor(errs).shape)


for errs in stream():
    pass
print("%.4f" % errs[0])
