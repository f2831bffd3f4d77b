# corpus: runnable
# Loops that read a file the same loop writes: a checkpoint reloaded each epoch, a NumPy cache
# refreshed, a JSON config edited by the run, a folder listing that grows. The reads look invariant.
import json
import os
import tempfile

import numpy as np
import torch

torch.set_num_threads(1)
tmp = tempfile.mkdtemp()
cache = os.path.join(tmp, "feats.npy")
np.save(cache, np.arange(4, dtype=np.float32))
got = []
for epoch in range(3):
    feats = torch.from_numpy(np.load(cache))
    got.append(feats.sum().item())
    np.save(cache, np.load(cache) * 2)
print("np.load", got)

cfg_path = os.path.join(tmp, "cfg.json")
with open(cfg_path, "w") as fh:
    json.dump({"scale": 1.0}, fh)
scales = []
for epoch in range(3):
    with open(cfg_path) as fh:
        cfg = json.load(fh)
    s = torch.tensor(cfg["scale"])
    scales.append(s.item())
    with open(cfg_path, "w") as fh:
        json.dump({"scale": cfg["scale"] * 3}, fh)
print("json config", scales)

ckpt = os.path.join(tmp, "w.pt")
torch.save(torch.ones(3), ckpt)
sums = []
for epoch in range(3):
    w = torch.load(ckpt)
    sums.append(w.sum().item())
    torch.save(w + 1, ckpt)
print("torch.load", sums)

shards = os.path.join(tmp, "shards")
os.makedirs(shards)
counts = []
for epoch in range(3):
    n = torch.tensor(len(os.listdir(shards)))
    counts.append(n.item())
    open(os.path.join(shards, f"s{epoch}.bin"), "w").close()
print("listdir", counts)

txt = os.path.join(tmp, "vals.txt")
np.savetxt(txt, np.ones(3))
vals = []
for epoch in range(3):
    arr = np.loadtxt(txt)
    t = torch.tensor(arr)
    vals.append(t.sum().item())
    np.savetxt(txt, arr + epoch + 1)
print("loadtxt", vals)
