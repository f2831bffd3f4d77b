# corpus: runnable
# Red team 48 (blind): early stopping with snapshots. A hand-written EMA copy updated every step and
# torch's AveragedModel updated every epoch; the best weights kept twice (a cloned dict and the live
# state_dict, which aliases the weights); a restart from the cloned best when validation gets worse; the
# optimizer's momentum buffer read from `optimizer.state_dict()` in the loop. Augmentation draws from
# NumPy's global stream inside the dataset; the loader shuffles with its own generator.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim.swa_utils import AveragedModel

from data import make_loaders
from ema import EMA, cloned_state, live_state
from evaluate import evaluate

np.random.seed(0)
torch.manual_seed(0)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

model = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.BatchNorm1d(32), nn.Linear(32, 2)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.2, momentum=0.9)
ema = EMA(model, 0.95)
swa = AveragedModel(model)
train_loader, val_loader, train_set, val_set = make_loaders(seed=7)

best_loss = float("inf")
best_clone = None
best_live = None
momentum_seen = []
restarts = 0
for epoch in range(5):
    running = 0.0
    for xb, yb in train_loader:
        xb, yb = xb.to(device), yb.to(device)
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        ema.update(model)
        running += loss.item() * len(yb)
    swa.update_parameters(model)
    buf = opt.state_dict()["state"][0]["momentum_buffer"]
    momentum_seen.append(buf)
    val_loss, val_acc = evaluate(model, val_loader, device)
    ema_loss, ema_acc = evaluate(ema.module, val_loader, device)
    print(f"epoch {epoch} train {running / len(train_set):.10f} val {val_loss:.10f} acc {val_acc:.4f} "
          f"ema {ema_loss:.10f} {ema_acc:.4f}")
    if val_loss < best_loss:
        best_loss = val_loss
        best_clone = cloned_state(model)
        best_live = live_state(model)
    elif restarts == 0:
        restarts += 1
        model.load_state_dict(best_clone)
        print("restart from best", f"{best_loss:.10f}")

swa_loss, swa_acc = evaluate(swa.module, val_loader, device)
print(f"swa {swa_loss:.10f} {swa_acc:.4f} n_averaged {int(swa.n_averaged)}")
print("live best equals current", all(torch.equal(best_live[k], v) for k, v in model.state_dict().items()))
print("clone best sum", sum(float(v.float().sum()) for v in best_clone.values()))
print("momentum buffers alias", momentum_seen[0] is momentum_seen[-1],
      [round(float(b.abs().sum()), 6) for b in momentum_seen])
print("items served", train_set.served, val_set.served, "next numpy", np.random.rand())
