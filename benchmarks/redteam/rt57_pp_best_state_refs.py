# corpus: runnable
# Red team 57 (blind): early stopping and the best model kept three ways. `best_ref = model.state_dict()`
# holds references to the live parameters (it follows training), `best_copy` is a deepcopy and `best_clone`
# a dict of clones; the best loss is kept as a 0-d tensor rebuilt from `.item()`, a checkpoint is written to
# a buffer with torch.save in the middle of training and later loaded back, and the restored model is scored.
import copy
import io

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5701)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

g = torch.Generator().manual_seed(57)
X = torch.randn(160, 5, generator=g)
Y = (X[:, 0] - 0.5 * X[:, 1] + 0.3 * X[:, 2] * X[:, 3]).unsqueeze(1) + 0.1 * torch.randn(160, 1, generator=g)
Xtr, Ytr, Xva, Yva = X[:120].to(device), Y[:120].to(device), X[120:].to(device), Y[120:].to(device)

model = nn.Sequential(nn.Linear(5, 24), nn.Tanh(), nn.Linear(24, 1)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.08, momentum=0.9)


def val_loss(m):
    m.eval()
    with torch.no_grad():
        out = F.mse_loss(m(Xva), Yva)
    m.train()
    return out


best_loss = torch.tensor(float('inf'))
best_ref, best_copy, best_clone, best_epoch = None, None, None, -1
patience, bad = 4, 0
ckpt = io.BytesIO()
history = []
for epoch in range(30):
    perm = torch.randperm(120, generator=g)
    for i in range(0, 120, 20):
        idx = perm[i:i + 20].to(device)
        loss = F.mse_loss(model(Xtr[idx]), Ytr[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    v = val_loss(model)
    history.append(v)
    if v.item() < best_loss.item():
        best_loss = torch.tensor(v.item())
        best_ref = model.state_dict()
        best_copy = copy.deepcopy(model.state_dict())
        best_clone = {k: t.detach().clone() for k, t in model.state_dict().items()}
        best_epoch = epoch
        bad = 0
    else:
        bad += 1
    if epoch == 5:
        ckpt.seek(0)
        ckpt.truncate()
        torch.save({'model': model.state_dict(), 'opt': opt.state_dict(), 'epoch': epoch}, ckpt)
        with torch.no_grad():
            for p in model.parameters():
                p.mul_(1.0)
    if bad >= patience:
        break

final_val = val_loss(model).item()
ref_diff = sum((best_ref[k] - best_copy[k]).abs().sum().item() for k in best_copy)
clone_diff = sum((best_clone[k] - best_copy[k]).abs().sum().item() for k in best_copy)
print('stopped', epoch, 'best epoch', best_epoch, f'best {best_loss.item():.8f} final {final_val:.8f}')
print(f'ref drifted {ref_diff:.8f} clone vs copy {clone_diff:.8f}')

model.load_state_dict(best_copy)
restored = val_loss(model).item()
ckpt.seek(0)
state = torch.load(ckpt, weights_only=True)
model.load_state_dict(state['model'])
at5 = val_loss(model).item()
hist = torch.stack(history).cpu()
print(f'restored {restored:.8f} ckpt@{state["epoch"]} {at5:.8f} hist min {hist.min().item():.8f} argmin {hist.argmin().item()}')
print('checksum', round(restored + at5 + float(hist.sum()), 6))
