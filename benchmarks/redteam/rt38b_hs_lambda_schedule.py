# corpus: runnable
# Red team 38, wave 2 (blind): a "loss-aware" learning-rate schedule. The schedule function reads the
# module's running loss (kept with `global` in the epoch function) and LambdaLR multiplies the base
# learning rate by it every step, through a functools.partial. The learning rate and losses are logged.
import functools

import torch
import torch.nn as nn

torch.manual_seed(3)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"

data = torch.randn(64, 6)
target = data[:, :2].sum(1, keepdim=True) - data[:, 4:].mean(1, keepdim=True)
model = nn.Sequential(nn.Linear(6, 12), nn.Tanh(), nn.Linear(12, 1)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)

running_loss = 0.0
n_steps = 0


def damped(step: int, floor: float) -> float:
    # shrink the learning rate while the running average loss is high
    if n_steps == 0:
        return 1.0
    return max(floor, 1.0 / (1.0 + running_loss / n_steps))


sched = torch.optim.lr_scheduler.LambdaLR(opt, functools.partial(damped, floor=0.25))


def train_epoch(epoch: int) -> None:
    global running_loss, n_steps
    for b in range(0, 64, 16):
        xb, yb = data[b : b + 16].to(device), target[b : b + 16].to(device)
        loss = ((model(xb) - yb) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        running_loss += loss.item()
        n_steps += 1
        sched.step()
    lr = opt.param_groups[0]["lr"]
    print(epoch, f"{loss.item():.12f}", repr(lr), type(lr).__name__)


for epoch in range(4):
    train_epoch(epoch)
print("final", f"{running_loss / n_steps:.12f}", type(running_loss).__name__)
