# corpus: runnable
# Red team 59 probe (NOT blind): per-step losses kept as Python floats with .item() and turned into a tensor after
# training (the list-to-tensor shape), while hooks read the same list during training as Python numbers: a forward
# pre-hook sets the dropout probability from the mean of the last losses, a tensor hook on the output layer's
# weight scales its gradient by a factor computed from the last loss, and a full backward hook formats the last
# loss into a log line.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5955)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

N, D, C = 320, 8, 3
protos = torch.randn(C, D)
Y = torch.randint(0, C, (N,))
X = (protos[Y] + torch.randn(N, D)).to(device)
Y = Y.to(device)
net = nn.Sequential(nn.Linear(D, 32), nn.ReLU(), nn.Dropout(0.1), nn.Linear(32, C)).to(device)
opt = torch.optim.SGD(net.parameters(), lr=0.1)

loss_hist = []
grad_hist = []
log_lines = []


def adapt_dropout(module, inputs):
    if len(loss_hist) >= 5:
        module.p = min(0.5, sum(loss_hist[-5:]) / 5 * 0.3)


def damp(g):
    if loss_hist:
        return g / (1.0 + math.log1p(loss_hist[-1]))
    return g


def log_line(module, grad_input, grad_output):
    if loss_hist:
        log_lines.append("loss=%.6f" % loss_hist[-1])


net[2].register_forward_pre_hook(adapt_dropout)
net[3].weight.register_hook(damp)
net[3].register_full_backward_hook(log_line)

for epoch in range(5):
    perm = torch.randperm(N, device=device)
    for i in range(0, N, 40):
        idx = perm[i:i + 40]
        loss = F.cross_entropy(net(X[idx]), Y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        loss_hist.append(loss.item())
        grad_hist.append(net[3].weight.grad.norm().item())

hist = torch.tensor(loss_hist)
g = torch.tensor(grad_hist)
print("loss", round(hist[-8:].mean().item(), 5), "p", round(net[2].p, 6))
print("grad", round(g.mean().item(), 5))
print("log", log_lines[-1], len(log_lines))
