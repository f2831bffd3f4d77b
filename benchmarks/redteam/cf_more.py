# corpus: runnable
import numpy as np
import torch
torch.manual_seed(0)
np.random.seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
raw = np.random.rand(6, 3).astype(np.float32)
def standardise(a):
    a -= a.mean(0)
    return a / (a.std(0) + 1e-6)
def normalise(a):
    return (a - a.mean(0)) / (a.std(0) + 1e-6)
model = torch.nn.Linear(3, 1).to(device)
for epoch in range(3):
    feats = standardise(raw)
    print(round(model(torch.from_numpy(feats).to(device)).sum().item(), 4))
for epoch in range(3):
    feats = normalise(raw)
    x = torch.from_numpy(feats).to(device)
    x.mul_(2)
    print(round(model(x).sum().item(), 4))
for epoch in range(3):
    feats = normalise(raw)
    feats_view = feats[:, :2]
    np.clip(feats_view, -1, 1, out=feats_view)
    print(round(float(feats.sum()), 4))
for epoch in range(3):
    f2 = normalise(raw)
    t = torch.as_tensor(f2)
    t[0] = epoch
    print(round(float(f2.sum()), 4))
