# corpus: runnable
# A logger in a local module reads the running loss off `__main__` every few steps, and a helper
# returns another running sum the same way; the loops themselves never read the sums.
import torch
import torch.nn as nn

from logger import Logger, loss_so_far

torch.manual_seed(0)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
batches = [(torch.randn(6, 4), torch.randn(6, 1)) for _ in range(4)]
log = Logger(every=2)

running_loss = 0.0
for i, (x, y) in enumerate(batches):
    loss = nn.functional.mse_loss(model(x.to(device)), y.to(device))
    opt.zero_grad()
    loss.backward()
    opt.step()
    running_loss += loss.item()
    log.step(i)
print(log.lines)

seen_loss = 0.0
trail = []
for x, y in batches:
    loss = nn.functional.mse_loss(model(x.to(device)), y.to(device))
    opt.zero_grad()
    loss.backward()
    opt.step()
    seen_loss += loss.item()
    trail.append(type(loss_so_far()).__name__)
print(trail, round(seen_loss, 5))
