# corpus: runnable
# Red team cwa (probe, wave 2): per-parameter-group losses are summed into a vector total
# (`loss_vec.sum(0)` style: one entry per head); the report's number format comes from a config
# dict, empty for "raw", and the sum is printed through it.
import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(4)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
cfg = {"fmt": ""}
x = torch.randn(48, 6)
y = torch.randn(48, 2)
loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x, y), batch_size=12)
model = nn.Linear(6, 2).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
per_head = torch.zeros(2, device=device)
for xb, yb in loader:
    xb, yb = xb.to(device), yb.to(device)
    err = F.mse_loss(model(xb), yb, reduction="none").mean(0)
    loss = err.sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    per_head = per_head + err
fmt = cfg["fmt"]
print(f"per-head loss {per_head / len(loader):{fmt}}")
print(f"total {per_head.sum().item():.4f}")
