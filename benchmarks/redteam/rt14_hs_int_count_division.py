# corpus: runnable
# Counts summed with `.item()` then divided: as Python ints `correct / n` is float64, as an
# int64 tensor it would be float32; a bool `.any().item()` counted; a count of a float16
# prediction; `sum()` of int8 values beyond 127 when kept as int8.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
ds = TensorDataset(torch.randn(30, 4), torch.randint(0, 3, (30,)))
dl = DataLoader(ds, batch_size=7)
model = nn.Linear(4, 3).to(device)

correct = 0
for xb, yb in dl:
    xb, yb = xb.to(device), yb.to(device)
    correct += (model(xb).argmax(1) == yb).sum().item()
acc = correct / 30
print("acc", repr(acc), acc * 1e7)

flags = 0
for xb, yb in dl:
    flags += (model(xb.to(device)) > 1.0).any().item()
print("flags", flags, type(flags).__name__)

small = 0
for xb, yb in dl:
    small += yb.to(torch.int8).to(device).sum().item()
print("int8 sum", small)

tot8 = 0
for xb, yb in dl:
    v = (yb.to(device) * 60).to(torch.int8)
    tot8 += v.max().item()
print("int8 max", tot8, tot8 / 7)

ratio = 0.0
for xb, yb in dl:
    ratio += (yb.to(device) == 1).float().mean().item() / 3
print("ratio", repr(ratio))
