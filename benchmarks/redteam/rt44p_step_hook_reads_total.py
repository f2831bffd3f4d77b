# corpus: runnable
# Red team 44 probe (after first contact, not blind): an optimizer step post-hook logs the running total
# the loop accumulates with .item(); a step pre-hook anneals the class-weight floor a loop factory reads.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

g = torch.Generator().manual_seed(3)
X = torch.randn(48, 4, generator=g)
Y = torch.randint(0, 3, (48,), generator=g)
loader = [(X[i:i + 8].to(device), Y[i:i + 8].to(device)) for i in range(0, 48, 8)]
model = nn.Linear(4, 3).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
history = []
cfg = {"floor": 1.0}


def log_running(optimizer, args, kwargs):
    history.append(round(running, 10))


def anneal(optimizer, args, kwargs):
    cfg["floor"] = cfg["floor"] * 0.7


opt.register_step_post_hook(log_running)
opt.register_step_pre_hook(anneal)
for epoch in range(2):
    running = 0.0
    for x, y in loader:
        weights = torch.full((3,), cfg["floor"], device=device)
        loss = F.cross_entropy(model(x), y, weight=weights)
        opt.zero_grad()
        loss.backward()
        opt.step()
        running += loss.item()
    print("epoch", epoch, "running %.10f" % running)
print("history", history)
