# corpus: runnable
# Per-epoch snapshots of plain tensors (a functional model's weights, an EMA) by a NumPy round
# trip, where the tensor is then changed through a container that holds it: an optimizer over a
# list, `torch._foreach_add_` over a tuple, a dict of weights updated in a loop, `copy.copy`.
import copy

import torch

torch.manual_seed(0)
torch.set_num_threads(1)
xs, ys = torch.randn(8, 3), torch.randn(8)

w = torch.zeros(3, requires_grad=True)
params = [w]
opt = torch.optim.SGD(params, lr=0.1)
history = []
for epoch in range(3):
    snap = torch.tensor(w.detach().cpu().numpy())
    history.append(snap)
    loss = ((xs @ w - ys) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
print("optimizer", [h.tolist() for h in history])

ema = torch.zeros(3)
shadow = (ema,)
kept = []
for epoch in range(3):
    kept.append(torch.tensor(ema.numpy()))
    torch._foreach_add_(shadow, [xs[epoch]])
print("foreach", [k.tolist() for k in kept])

weights = {"a": torch.ones(2), "b": torch.ones(2)}
trace = []
for step in range(3):
    trace.append(torch.tensor(weights["a"].cpu().numpy()))
    for name, t in weights.items():
        t.mul_(0.5)
print("dict", [t.tolist() for t in trace])

bank = [torch.zeros(2)]
saved = []
for step in range(3):
    cur = bank[0]
    saved.append(torch.tensor(cur.numpy()))
    alias = copy.copy(bank)
    alias[0].add_(1.0)
print("copied", [s.tolist() for s in saved])
