# corpus: runnable
# Red team 23: loop-invariant work that raises, guarded by try/except, `continue`, `break`, `match`,
# `while ... else`, an `np.errstate` block, or a loop that may run zero times
import numpy as np
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(23)
device = "cuda" if torch.cuda.is_available() else "cpu"

cov = np.array([[1.0, 2.0], [2.0, 4.0]])
ragged = [[1.0, 2.0], [3.0]]
zeros = np.zeros(3)
model = nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
log = []
mode = "warmup"
for step in range(4):
    try:
        inv = np.linalg.inv(cov)
    except np.linalg.LinAlgError:
        inv = np.eye(2)
    try:
        w = torch.tensor(ragged, device=device)
    except ValueError:
        w = torch.ones(4, device=device)
    else:
        w = w.flatten()
    finally:
        log.append(("try", step))
    with np.errstate(divide="raise"):
        try:
            lz = np.log(zeros)
        except FloatingPointError:
            lz = np.ones(3)
    match mode:
        case "bad":
            m = torch.tensor(ragged, device=device)
        case _:
            m = torch.zeros(2, device=device)
    x = torch.randn(8, 4, device=device)
    loss = model(x * w).pow(2).mean() * 1e-3
    opt.zero_grad()
    loss.backward()
    opt.step()
    log.append(round(float(inv.sum() + lz.sum() + m.sum().item()), 5))
pending = []
for batch in pending:
    p = np.linalg.inv(cov)
    log.append(float(p.sum()))
for step in range(4):
    if step < 10:
        continue
    q = torch.tensor(ragged, device=device)
    log.append(float(q.sum()))
for step in range(4):
    if cov[0, 0] > 0:
        break
    r = np.linalg.inv(cov)
    log.append(float(r.sum()))
k = 0
while k < 0:
    s = torch.tensor(ragged, device=device)
    k += 1
else:
    log.append("else")
print("control", log)
