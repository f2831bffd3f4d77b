# corpus: runnable
# Red team 44 (blind): gradient accumulation whose backward runs in a functools.partial-bound flush, an
# LBFGS fine-tuning phase driven by step(closure), and a partial-bound evaluation step that adapts
# the normalisation layer on each batch (test-time BN statistics with a gradient step).
import functools

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

ACC = 3
g = torch.Generator().manual_seed(4)
X = torch.randn(60, 5, generator=g)
Y = X @ torch.tensor([0.5, -1.0, 2.0, 0.0, 1.5]) + 0.1 * torch.randn(60, generator=g)
batches = [(X[i:i + 6].to(device), Y[i:i + 6].to(device)) for i in range(0, 60, 6)]

model = nn.Sequential(nn.Linear(5, 8), nn.LayerNorm(8), nn.GELU(), nn.Linear(8, 1)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05)


def flush(window, optimizer, scale):
    torch.stack(window).sum().mul(scale).backward()
    optimizer.step()
    optimizer.zero_grad()
    window.clear()


flush_now = functools.partial(flush, optimizer=opt, scale=1.0 / ACC)
window = []
for epoch in range(3):
    for i, (x, y) in enumerate(batches):
        loss = F.mse_loss(model(x).squeeze(1), y)
        window.append(loss)
        if (i + 1) % ACC == 0:
            flush_now(window)
    print("epoch", epoch, "loss %.10f" % loss.item(), "pending", len(window))

lbfgs = torch.optim.LBFGS(model.parameters(), lr=0.5, max_iter=4)
full_x = torch.cat([b[0] for b in batches])
full_y = torch.cat([b[1] for b in batches])


def closure():
    lbfgs.zero_grad()
    out = F.mse_loss(model(full_x).squeeze(1), full_y)
    out.backward()
    return out


trace = []
total = 0.0
for it in range(3):
    loss = lbfgs.step(closure)
    trace.append(loss.item())
    total += loss
print("lbfgs", ["%.10f" % v for v in trace], "total %.10f" % total.item())


def adapt_step(x, y, net, optimizer):
    pred = net(x).squeeze(1)
    ent = pred.var()
    optimizer.zero_grad()
    ent.backward()
    optimizer.step()
    return F.mse_loss(pred, y)


norm_params = list(model[1].parameters())
tta = functools.partial(adapt_step, net=model, optimizer=torch.optim.SGD(norm_params, lr=0.01))
errors = []
for x, y in batches[:5]:
    base = model(x)
    errors.append(tta(x, y).item())
    print("base %.10f" % base.sum().item())
print("tta errors", ["%.10f" % v for v in errors])
print("norm weight %.10f" % model[1].weight.detach().cpu().sum().item())
