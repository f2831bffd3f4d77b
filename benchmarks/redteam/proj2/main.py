# corpus: runnable
import numpy as np
import torch
import prep
from prep import normalise, set_scale, counted
np.random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
raw = np.random.rand(6, 3).astype(np.float32)
model = torch.nn.Linear(3, 1).to(device)
for epoch in range(3):
    feats = normalise(raw)
    print(round(model(torch.from_numpy(feats).to(device)).sum().item(), 4))
    set_scale(epoch + 2)
for epoch in range(3):
    feats = prep.normalise(raw)
    print(round(float(feats.sum()), 4))
    prep.SCALE = epoch
for epoch in range(3):
    c = counted(raw)
    print(round(float(c.sum()), 4))
