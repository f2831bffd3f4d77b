# corpus: runnable
# Red team 43 (blind): the feature noise is switched on by augment.enable_jitter(), which replaces
# preprocessing.standardise at run time; the loop calls it through the module every epoch.
import numpy as np
import torch
import torch.nn as nn

import augment
import preprocessing as pp

torch.manual_seed(0)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

rng = np.random.RandomState(0)
raw = rng.rand(48, 6).astype(np.float32)
target = torch.from_numpy(rng.rand(48, 1).astype(np.float32)).to(device)

augment.enable_jitter()
model = nn.Sequential(nn.Linear(6, 8), nn.Tanh(), nn.Linear(8, 1)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
losses = []
for epoch in range(4):
    feats = pp.standardise(raw)
    feats = pp.clip_outliers(feats)
    x = torch.from_numpy(feats).to(device)
    loss = (model(x) - target).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
    print(epoch, "loss %.10f" % losses[-1], "feat0 %.8f" % float(feats[0, 0]))
print("standardise calls", augment.CALLS["standardise"])
print("mean loss %.10f" % (sum(losses) / len(losses)))
