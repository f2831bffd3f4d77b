# corpus: runnable
# Red team 22 (wave 2): per-epoch statistics read by iterating a shuffling DataLoader / a random sampler; each
# iteration draws from torch's generator (the loader's base seed, the order), so building them once freezes the order
# and shifts every later draw (the model's init, dropout, the next batches)
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, RandomSampler, TensorDataset

torch.set_num_threads(1)
torch.manual_seed(22)
device = "cuda" if torch.cuda.is_available() else "cpu"

ds = TensorDataset(torch.randn(16, 4), torch.arange(16) % 3)
loader = DataLoader(ds, batch_size=4, shuffle=True)
plain = DataLoader(ds, batch_size=8, shuffle=False)
sampler = RandomSampler(ds)
model = nn.Sequential(nn.Linear(4, 8), nn.Dropout(0.2), nn.Linear(8, 3)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
log = []
for epoch in range(3):
    first_labels = np.array([int(y[0]) for _, y in loader])
    sizes = np.array([len(x) for x, _ in plain])
    order = torch.tensor([i for i in sampler])
    for x, y in loader:
        loss = nn.functional.cross_entropy(model(x.to(device)), y.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
    log.append((first_labels.tolist(), sizes.tolist(), order[:4].tolist(), round(loss.item(), 5)))
print("orders", log)
