# corpus: runnable
# Red team 48 (blind): random streams. The dataset draws crop offsets from torch's global generator when
# an item is served; the sampler reshuffles per epoch from its own generator; the loop reseeds torch,
# NumPy and Python per epoch, picks an augmentation with `random.choice`, draws noise / erasing masks /
# a mixup permutation on the host and moves them, and uses a constant position index per step. Every
# draw's order matters: the last numbers of each stream are printed.
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader

from augment import erase, mixup, noisy, pick
from sampler import CropSet, EpochSampler

torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'
N_CLS = 3
CROP = 6

dataset = CropSet(48, 10, CROP)
sampler = EpochSampler(len(dataset), seed=5)
loader = DataLoader(dataset, batch_size=12, sampler=sampler)
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(CROP, 20), nn.SiLU(), nn.Linear(20, N_CLS)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.8)
chosen = []
for epoch in range(3):
    torch.manual_seed(1000 + epoch)
    np.random.seed(1000 + epoch)
    random.seed(1000 + epoch)
    sampler.set_epoch(epoch)
    for xb, yb in loader:
        xb, yb = xb.to(device), yb.to(device)
        pos = torch.arange(CROP, device=device).float() / CROP
        xb = xb + 0.01 * pos
        kind = pick()
        chosen.append(kind)
        target = F.one_hot(yb, N_CLS).float()
        if kind == "noise":
            xb = noisy(xb, 0.1, device)
        elif kind == "erase":
            xb = erase(xb, 0.25, device)
        elif kind == "mixup":
            xb, target = mixup(xb, yb, N_CLS, 0.4, device)
        jitter = torch.empty(xb.shape[0], 1).uniform_(0.9, 1.1).to(device)
        loss = torch.sum(-target * F.log_softmax(model(xb * jitter), 1), 1).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.10f}")

print("augmentations", chosen)
print("streams", torch.rand(1).item(), np.random.rand(), random.random())
print("param sum", f"{sum(p.sum().item() for p in model.parameters()):.10f}")
