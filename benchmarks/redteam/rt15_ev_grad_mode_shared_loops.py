# corpus: runnable
# One `run_epoch(loader, train)` shared by training and evaluation: grad mode set by
# `torch.set_grad_enabled(train)` as a statement (not a `with`), an evaluation loop that
# re-enables grad through `contextlib.ExitStack`, and an evaluation loop that fine-tunes a
# temperature through `torch.enable_grad()` entered by `__enter__`.
import contextlib

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
torch.set_num_threads(1)
model = nn.Linear(4, 3)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
dl = DataLoader(TensorDataset(torch.randn(16, 4), torch.randint(0, 3, (16,))), batch_size=4)


def run_epoch(loader, train):
    torch.set_grad_enabled(train)
    model.train(train)
    total = 0.0
    for xb, yb in loader:
        loss = nn.functional.cross_entropy(model(xb), yb)
        if loss.requires_grad:
            opt.zero_grad()
            loss.backward()
            opt.step()
        total += float(loss)
    torch.set_grad_enabled(True)
    return round(total, 5)


print("train", run_epoch(dl, True), "eval", run_epoch(dl, False), "train", run_epoch(dl, True))

temp = torch.ones(1, requires_grad=True)
model.eval()
temps = []
for xb, yb in dl:
    with contextlib.ExitStack() as stack:
        stack.enter_context(torch.enable_grad())
        logits = model(xb) / temp
        loss = nn.functional.cross_entropy(logits, yb)
        g, = torch.autograd.grad(loss, temp)
    with torch.no_grad():
        temp -= 0.1 * g
    temps.append(round(temp.item(), 5))
print("temps", temps)

scale = torch.ones(1, requires_grad=True)
scales = []
for xb, yb in dl:
    ctx = torch.enable_grad()
    ctx.__enter__()
    out = (model(xb) * scale).logsumexp(1).mean()
    out.backward()
    ctx.__exit__(None, None, None)
    scales.append(round(scale.grad.item(), 5))
print("scale grads", scales)
