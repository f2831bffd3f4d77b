# corpus: runnable
# Red team 48 (blind): a training loop that checkpoints every few steps into memory (torch.save of a dict
# holding the model state, the optimizer state and the RUNNING LOSS), then simulates a preemption: it
# restores the last checkpoint mid-epoch and goes on from there. The restored running loss and what the
# checkpoint holds are printed, as are the types stored.
import io

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

model = nn.Sequential(nn.Linear(5, 12), nn.ReLU(), nn.Linear(12, 1)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
X = torch.randn(96, 5)
Y = X.sum(1, keepdim=True) * 0.3 + 0.1 * torch.randn(96, 1)

checkpoints = []


def save_checkpoint(step, running):
    buf = io.BytesIO()
    torch.save({"step": step, "running": running, "model": model.state_dict(),
                "optim": opt.state_dict()}, buf)
    checkpoints.append(buf.getvalue())


def load_checkpoint(blob):
    return torch.load(io.BytesIO(blob), weights_only=False)


preempted = False
step = 0
running = 0.0
while step < 24:
    i = (step * 8) % 96
    xb = X[i:i + 8].to(device)
    yb = Y[i:i + 8].to(device)
    loss = F.mse_loss(model(xb), yb)
    opt.zero_grad()
    loss.backward()
    opt.step()
    running += loss.item()
    step += 1
    if step % 5 == 0:
        save_checkpoint(step, running)
    if step == 13 and not preempted:
        preempted = True
        state = load_checkpoint(checkpoints[-1])
        model.load_state_dict(state["model"])
        opt.load_state_dict(state["optim"])
        step = state["step"]
        running = state["running"]
        print("restored step", step, "running", running, type(running).__name__)

print("final running", running)
print("final running type", type(running).__name__)
last = load_checkpoint(checkpoints[-1])
print("last checkpoint step", last["step"], "running", last["running"], type(last["running"]).__name__)
print("checkpoint sizes", [len(c) for c in checkpoints])
