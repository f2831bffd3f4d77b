# corpus: runnable
# Red team cwa (probe): the epoch's summed loss is kept as a tensor; after training the script
# exports it with `.cpu().numpy()` inside a try (a "best effort" export many scripts have), and a
# list of per-step losses is turned into an array the same way.
import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
x = torch.randn(96, 8)
y = (x[:, 1] > 0).long()
loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x, y), batch_size=16)
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
epoch_sum = 0.0
for xb, yb in loader:
    xb, yb = xb.to(device), yb.to(device)
    loss = F.cross_entropy(model(xb), yb)
    opt.zero_grad()
    loss.backward()
    opt.step()
    epoch_sum += loss
try:
    exported = epoch_sum.cpu().numpy()
    print("exported", float(exported) / len(loader))
except RuntimeError as err:
    print("export failed:", type(err).__name__)
print(f"mean {epoch_sum.item() / len(loader):.5f}")
