# corpus: runnable
# Red team cwa (probe): the epoch loss is summed with `.item()` into a module-level name; a
# tracker class reads it through a property (the class body's own code, not a plain function of
# the module), and the loop logs the property's text every other step.
import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(3)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
x = torch.randn(64, 4)
y = (x[:, 0] * x[:, 1] > 0).long()
loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x, y), batch_size=8)
model = nn.Sequential(nn.Linear(4, 12), nn.Tanh(), nn.Linear(12, 2)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
epoch_loss = 0


class Tracker:
    label = "epoch"
    text = property(lambda self: f"{self.label}: {epoch_loss!r}")


tracker = Tracker()
for i, (xb, yb) in enumerate(loader):
    xb, yb = xb.to(device), yb.to(device)
    loss = F.cross_entropy(model(xb), yb)
    opt.zero_grad()
    loss.backward()
    opt.step()
    epoch_loss += loss.item()
    if i % 2:
        print(tracker.text)
print("done", epoch_loss / len(loader))
