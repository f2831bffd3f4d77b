# corpus: runnable
# Red team 52 (blind): phases of one model. Phase 1 trains only the head (backbone frozen with
# requires_grad_), phase 2 unfreezes and trains everything with checkpointed blocks and a gradient
# monitor whose forward hooks register tensor hooks that clip; phase 3 takes DP-SGD steps through
# torch.func; an evaluation in eval mode reads the monitored model at the end of each phase.
import torch
import torch.nn.functional as F

from hooks import GradMonitor
from models import Net
from private import dp_step

torch.manual_seed(5208)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'
gen = torch.Generator().manual_seed(5208)

X = torch.randn(96, 6, generator=gen)
Y = ((X[:, 0] > 0).long() + (X[:, 1] > 0.5).long())
X, Y = X.to(device), Y.to(device)
model = Net(6, 12, 3, use_checkpoint=True).to(device)
monitor = GradMonitor(model.blocks, clip=0.5)


def evaluate(model, X, Y):
    model.eval()
    correct, losses = 0, []
    for i in range(0, X.shape[0], 32):
        out = model(X[i:i + 32])
        losses.append(F.cross_entropy(out, Y[i:i + 32]).item())
        correct += (out.argmax(1) == Y[i:i + 32]).sum().item()
    model.train()
    return correct / X.shape[0], sum(losses) / len(losses)


report = []
for m in model.backbone():
    m.requires_grad_(False)
opt = torch.optim.SGD(model.head.parameters(), lr=0.1)
for i in range(0, 96, 16):
    loss = F.cross_entropy(model(X[i:i + 16]), Y[i:i + 16])
    opt.zero_grad()
    loss.backward()
    opt.step()
report.append(evaluate(model, X, Y))

for m in model.backbone():
    m.requires_grad_(True)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
grad_norms = []
for epoch in range(2):
    for i in range(0, 96, 16):
        loss = F.cross_entropy(model(X[i:i + 16]), Y[i:i + 16])
        opt.zero_grad()
        loss.backward()
        opt.step()
        grad_norms.append(torch.stack(monitor.drain()).max().item())
report.append(evaluate(model, X, Y))
monitor.drain()

for h in monitor.handles:
    h.remove()
model.use_checkpoint = False
model.eval()
sample_norms = []
for i in range(0, 96, 24):
    norms, clipped = dp_step(model, X[i:i + 24], Y[i:i + 24], 0.2, 1.0, 0.5, gen)
    sample_norms.append(norms.mean().item())
report.append(evaluate(model, X, Y))
print('report', [(round(a, 4), round(l, 4)) for a, l in report])
print('grad_norms', [round(g, 4) for g in grad_norms[::3]])
print('dp', [round(s, 4) for s in sample_norms])
print('checksum', round(sum(a + l for a, l in report) + sum(grad_norms) + sum(sample_norms), 4))
