# corpus: runnable
# Red team 32b, wave 1 (blind): feature statistics kept in files, as a resumable pipeline keeps
# them. Each epoch the script writes the running mean/scale of the features it saw (`np.save`,
# `np.savetxt`) and the next epoch normalises with what is on disk: the loader helper and the
# loss-weight table are read back with NumPy from paths that never change, while their contents do.
import os
import tempfile

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
workdir = tempfile.mkdtemp(prefix="rt32b_stats_")
STATS_PATH = os.path.join(workdir, "stats.npy")
WEIGHTS_PATH = os.path.join(workdir, "class_weights.txt")
rng = np.random.default_rng(1)
raw = rng.gamma(2.0, 2.0, (48, 5)).astype(np.float32)
target = torch.from_numpy((raw[:, 0] > raw[:, 1]).astype(np.int64)).to(device)
np.save(STATS_PATH, np.stack([np.zeros(5), np.ones(5)]))
np.savetxt(WEIGHTS_PATH, np.ones(2))


def load_normaliser(path):
    stats = np.load(path)
    return stats[0], stats[1]


model = nn.Sequential(nn.Linear(5, 16), nn.Tanh(), nn.Linear(16, 2)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=0.05)
seen = []
for epoch in range(4):
    mean, scale = load_normaliser(STATS_PATH)
    class_weights = np.loadtxt(WEIGHTS_PATH)
    feats = torch.from_numpy(((raw - mean) / scale).astype(np.float32)).to(device)
    weight = torch.tensor(class_weights, dtype=torch.float32, device=device)
    loss = F.cross_entropy(model(feats), target, weight=weight)
    opt.zero_grad()
    loss.backward()
    opt.step()
    seen.append(raw * (epoch + 1))
    pooled = np.concatenate(seen)
    np.save(STATS_PATH, np.stack([pooled.mean(0), pooled.std(0) + 1e-6]))
    counts = np.bincount(target.cpu().numpy(), minlength=2)
    np.savetxt(WEIGHTS_PATH, counts.sum() / (2.0 * counts) * (1 + 0.1 * epoch))
    print(f"epoch {epoch} loss {loss.item():.6f} mean0 {float(mean[0]):.5f} w {class_weights.round(5).tolist()}")
