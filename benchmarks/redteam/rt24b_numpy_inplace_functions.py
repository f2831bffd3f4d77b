# corpus: runnable
# Red team 24: NumPy arrays changed in place by module functions and methods the analysis may not
# list (`np.random.shuffle`, `rng.shuffle`, `np.add.at`, `np.copyto`, `np.fill_diagonal`,
# `np.put`, `np.putmask`, `np.place`, `a.sort()`, `a.fill()`), and by files: an array saved and
# loaded again in the loop
import os
import tempfile

import numpy as np
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(24)
np.random.seed(24)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
rng = np.random.default_rng(5)
order = np.arange(6.0)
perm = np.arange(6.0)
hist = np.zeros(4)
dst = np.zeros(4)
mat = np.ones((3, 3))
put_me = np.zeros(4)
mask_me = np.zeros(4)
place_me = np.zeros(4)
to_sort = np.array([3.0, 1.0, 2.0, 0.5])
to_fill = np.zeros(3)
path = os.path.join(tempfile.mkdtemp(), "stats.npy")
np.save(path, np.zeros(4))
log = []
for step in range(3):
    np.random.shuffle(order)
    rng.shuffle(perm)
    np.add.at(hist, [0, 1, 1], 1.0)
    np.copyto(dst, np.full(4, float(step)))
    np.fill_diagonal(mat, step)
    np.put(put_me, [0, 2], [step, step])
    np.putmask(mask_me, mask_me >= 0, step + 1.0)
    np.place(place_me, place_me >= 0, [step + 2.0])
    to_sort[0] = 10.0 - step
    to_sort.sort()
    to_fill.fill(step)
    a = np.argsort(order)
    b = np.cumsum(perm)
    c = np.sqrt(hist)
    d = np.exp(dst)
    e = np.linalg.det(mat)
    f = np.abs(put_me)
    g = np.square(mask_me)
    h = np.abs(place_me)
    i = np.diff(to_sort)
    j = np.square(to_fill)
    stats = np.load(path)
    k = np.sqrt(stats)
    x = torch.randn(8, 4, device=device)
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    np.save(path, stats + loss.item())
    log.append([round(float(v.sum()), 5) for v in (a, b, c, d, e, f, g, h, i, j, k)])
print("inplace", log)
