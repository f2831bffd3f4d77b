# corpus: runnable
# Red team 24: an array written element by element through `np.nditer(..., op_flags=readwrite)`
# bound by `with ... as it` (the iterator's elements are views of the array)
import numpy as np
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(24)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
scales = np.ones(4)
log = []
for step in range(3):
    x = torch.randn(8, 4, device=device)
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    with np.nditer(scales, op_flags=[["readwrite"]]) as it:
        for v in it:
            v[...] = v * 1.5
    root = np.sqrt(scales)
    log.append((round(loss.item(), 5), round(float(root.sum()), 5)))
print("nditer", log)
