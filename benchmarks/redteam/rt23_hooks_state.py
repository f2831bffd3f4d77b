# corpus: runnable
# Red team 23: forward / backward / tensor hooks change state the loop reads (a buffer seen through a
# NumPy view, a Python list), and the evaluation pass registers tensor hooks and records grad mode
import numpy as np
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(23)
device = "cuda" if torch.cuda.is_available() else "cpu"


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.head = nn.Linear(4, 1)
        self.register_buffer("seen", torch.zeros(4))
        self.grads = []

    def forward(self, x):
        h = torch.relu(self.fc(x))
        if h.requires_grad:
            h.register_hook(lambda g: self.grads.append(float(g.abs().sum())))
        return self.head(h)


model = Net().to(device)
seen_host = model.seen.numpy() if device == "cpu" else np.zeros(4, dtype=np.float32)
fired = np.zeros(4, dtype=np.float32)
counts = torch.zeros(4)
counts_host = counts.numpy()
scales = [1.0, 1.0, 1.0, 1.0]
grad_modes = []


def track(module, inputs, output):
    model.seen.add_(output.detach().abs().mean(0).to(model.seen.device))
    fired[0] += 1.0
    grad_modes.append(torch.is_grad_enabled())


def on_backward(module, grad_in, grad_out):
    scales[0] += 1.0


model.fc.register_forward_hook(track)
model.head.register_full_backward_hook(on_backward)
def count_grad(g):
    counts.add_(1.0)


model.head.weight.register_hook(count_grad)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
log = []
for step in range(4):
    a = np.sqrt(seen_host)
    b = np.sqrt(fired)
    c = np.sqrt(counts_host)
    s = torch.tensor(scales, device=device)
    x = torch.randn(8, 4, device=device)
    loss = model(x * s).pow(2).mean() * 1e-3
    opt.zero_grad()
    loss.backward()
    opt.step()
    log.append([round(float(v.sum()), 5) for v in (a, b, c)] + [float(s.sum())])
model.eval()
val = [torch.randn(8, 4, device=device) for _ in range(3)]
total = 0.0
for xb in val:
    out = model(xb)
    total += float(out.sum())
print("hooks", log, round(total, 4), len(model.grads), grad_modes[-3:])
