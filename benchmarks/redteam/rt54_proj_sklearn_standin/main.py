# corpus: runnable
# Red team 54 (blind): deep clustering with scikit-learn-style stand-ins written by hand. An autoencoder is
# trained, features are extracted (a CPU tensor and its NumPy array, sharing memory on the CPU), scaled in
# place by a Scaler(copy=False), clustered by a NumPy k-means, and the cluster ids become pseudo-labels for a
# classifier head. Cluster sizes are counted in Python, centres come back as a float64 tensor.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from features import extract, to_labels
from kmeans import kmeans
from scaler import Scaler

torch.manual_seed(5408)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

g = torch.Generator().manual_seed(548)
centres = torch.randn(3, 8, generator=g) * 3
X = torch.cat([c + torch.randn(40, 8, generator=g) for c in centres])
enc = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 3)).to(device)
dec = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 8)).to(device)
opt = torch.optim.Adam(list(enc.parameters()) + list(dec.parameters()), lr=0.01)
for epoch in range(40):
    xb = X.to(device)
    loss = F.mse_loss(dec(enc(xb)), xb)
    opt.zero_grad()
    loss.backward()
    opt.step()
print('ae loss', f'{loss.item():.8f}')

feats, feats_np = extract(enc, X, device)
raw_norm = float(feats.norm())
scaler = Scaler(copy=False).fit(feats_np)
scaled = scaler.transform(feats_np)
print('raw', f'{raw_norm:.6f}', 'after scaling, tensor norm', f'{feats.norm().item():.6f}')
cent, labels, inertia = kmeans(scaled, 3, seed=548)
sizes = []
for j in range(3):
    sizes.append(int((labels == j).sum()))
size_t = torch.tensor(sizes)
cent_t = torch.tensor(cent)
y = to_labels(labels, device)
head = nn.Linear(3, 3).to(device)
hopt = torch.optim.SGD(head.parameters(), lr=0.5)
inputs = torch.tensor(scaled).to(device)
for step in range(25):
    out = head(inputs)
    hl = F.cross_entropy(out, y, weight=(len(labels) / (3 * size_t.float())).to(device))
    hopt.zero_grad()
    hl.backward()
    hopt.step()
agree = (head(inputs).argmax(1) == y).float().mean().item()
members = {}
for i, lab in enumerate(labels.tolist()):
    members.setdefault(lab, []).append(i)
purity = 0
for lab, idx in members.items():
    true = (torch.tensor(idx) // 40).tolist()
    purity += max(true.count(t) for t in set(true))
dist = torch.cdist(torch.from_numpy(scaled).double(), cent_t)
print('sizes', sizes, 'inertia', f'{inertia:.6f}', 'dtype', cent_t.dtype, y.dtype)
print('checksum', f'{hl.item():.8f}', f'{agree:.6f}', purity, f'{dist.min(1).values.sum().item():.6f}',
      f'{float(np.abs(scaled).sum()):.6f}')
