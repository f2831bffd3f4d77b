# corpus: runnable
# Tabular training from a DataFrame: a Dataset whose `__getitem__` reads `df.iloc[i]`, per-batch
# conversion of DataFrame slices to tensors, category codes from a dict, feature statistics
# recomputed per batch, a running standardiser that changes in place, and a confusion matrix filled
# with `index_put_(accumulate=True)`. pandas is used when installed; otherwise a small stand-in with
# the same few methods runs (the environment this red team ran in has no pandas).
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

try:
    import pandas as pd
except ImportError:  # a minimal stand-in: columns of NumPy arrays, .iloc rows, .values, slicing
    class _ILoc:
        def __init__(self, frame):
            self.frame = frame

        def __getitem__(self, i):
            if isinstance(i, slice):
                return _Frame({c: v[i] for c, v in self.frame.cols.items()})
            return _Row({c: v[i] for c, v in self.frame.cols.items()})

    class _Row(dict):
        def __getitem__(self, key):
            if isinstance(key, list):
                return _Row({k: dict.__getitem__(self, k) for k in key})
            return dict.__getitem__(self, key)

        @property
        def values(self):
            return np.array(list(dict.values(self)))

    class _Frame:
        def __init__(self, cols):
            self.cols = {c: np.asarray(v) for c, v in cols.items()}

        def __len__(self):
            return len(next(iter(self.cols.values())))

        def __getitem__(self, key):
            if isinstance(key, list):
                return _Frame({k: self.cols[k] for k in key})
            return self.cols[key]

        @property
        def iloc(self):
            return _ILoc(self)

        @property
        def values(self):
            return np.stack([self.cols[c] for c in self.cols], axis=1)

        def to_numpy(self, dtype=None):
            return self.values.astype(dtype) if dtype else self.values

    class pd:  # noqa: N801
        DataFrame = _Frame

torch.set_num_threads(1)
torch.manual_seed(7)
device = "cuda" if torch.cuda.is_available() else "cpu"
rng = np.random.RandomState(7)
n = 48
df = pd.DataFrame({
    "age": rng.randint(18, 70, n).astype(np.float32),
    "income": rng.lognormal(10, 0.5, n).astype(np.float32),
    "score": rng.randn(n).astype(np.float32),
    "city": rng.randint(0, 3, n),
    "label": rng.randint(0, 2, n),
})
num_cols = ["age", "income", "score"]
city_codes = {0: [1.0, 0.0, 0.0], 1: [0.0, 1.0, 0.0], 2: [0.0, 0.0, 1.0]}


class TabDS(Dataset):
    def __init__(self, frame):
        self.df = frame

    def __len__(self):
        return len(self.df)

    def __getitem__(self, i):
        row = self.df.iloc[i]
        x = torch.tensor(row[num_cols].values.astype(np.float32))
        c = torch.tensor(city_codes[int(row["city"])])
        return torch.cat([x, c]), torch.tensor(int(row["label"]))


model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 2)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
loader = DataLoader(TabDS(df), batch_size=8, shuffle=False)
mean = torch.tensor(df[num_cols].to_numpy(np.float32).mean(0).tolist() + [0.0, 0.0, 0.0])
std = torch.tensor(df[num_cols].to_numpy(np.float32).std(0).tolist() + [1.0, 1.0, 1.0])

total = 0.0
for epoch in range(2):
    for x, y in loader:
        x = ((x - mean) / std).to(device)
        loss = nn.functional.cross_entropy(model(x), y.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
print("iloc", repr(total))

# per-batch DataFrame slices turned into tensors, with a running standardiser changed in place
run_mean = torch.zeros(3)
seen = 0
t2 = 0.0
for start in range(0, n, 16):
    chunk = df.iloc[start:start + 16]
    xb = torch.tensor(chunk[num_cols].to_numpy(np.float32))
    yb = torch.tensor(np.asarray(chunk["label"]), dtype=torch.long)
    seen += len(xb)
    run_mean += (xb.sum(0) - len(xb) * run_mean) / seen
    feats = torch.cat([(xb - run_mean) / std[:3], torch.tensor([city_codes[int(c)] for c in chunk["city"]])], 1)
    loss = nn.functional.cross_entropy(model(feats.to(device)), yb.to(device))
    opt.zero_grad()
    loss.backward()
    opt.step()
    t2 += loss.item()
print("slices", repr(t2), run_mean.tolist())

# evaluation: confusion matrix by index_put_ with accumulate, column statistics per batch
conf = torch.zeros(2, 2, dtype=torch.long)
col_max = []
model.eval()
for x, y in loader:
    x = ((x - mean) / std).to(device)
    pred = model(x).argmax(1).cpu()
    conf.index_put_((y, pred), torch.ones_like(y), accumulate=True)
    col_max.append(torch.tensor(df[num_cols].to_numpy(np.float32).max(0)))
print("conf", conf.tolist(), torch.stack(col_max).sum().item())
