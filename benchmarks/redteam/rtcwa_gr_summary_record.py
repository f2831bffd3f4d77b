# corpus: runnable
# Red team cwa (probe): per-step losses are appended to a list; after the epoch the last one and
# the mean go into a summary record built with `dict(...)` keywords and a tuple, and the record is
# printed (as many scripts print a metrics dict).
import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
data = [(torch.randn(8, 5), torch.randn(8, 1)) for _ in range(5)]
model = nn.Linear(5, 1).to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
step_losses = []
for xb, yb in data:
    xb, yb = xb.to(device), yb.to(device)
    loss = F.mse_loss(model(xb), yb)
    opt.zero_grad()
    loss.backward()
    opt.step()
    step_losses.append(loss)
last, first = step_losses[-1], step_losses[0]
summary = {"n": len(step_losses), "improved": bool(last < first)}
print(summary)
print("last", last)
