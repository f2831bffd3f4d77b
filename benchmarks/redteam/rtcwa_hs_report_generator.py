# corpus: runnable
# Red team cwa (probe): a running loss summed with `.item()`; a progress "reporter" is a
# generator expression built before the loop that formats the running value with `repr`, and
# the loop pulls one line from it every few steps.
import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(2)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
x = torch.randn(80, 6)
y = x.sum(1, keepdim=True)
loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x, y), batch_size=10)
model = nn.Linear(6, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
running = 0.0
reporter = ("running=" + repr(running) for _ in iter(int, 1))
for step, (xb, yb) in enumerate(loader):
    xb, yb = xb.to(device), yb.to(device)
    loss = F.mse_loss(model(xb), yb)
    opt.zero_grad()
    loss.backward()
    opt.step()
    running += loss.item()
    if step % 3 == 2:
        print(next(reporter))
print("final", round(running, 6))
