# corpus: runnable
# Red team 46 (blind): attribution maps for a trained classifier. Vanilla saliency and integrated gradients
# take gradients of the class score w.r.t. the INPUT inside evaluation loops (model.eval(), no no_grad); one
# helper is `@torch.no_grad()` and re-enables autograd with `torch.enable_grad()`, another relies on the
# caller's grad mode. Totals are `.item()` sums; per-sample scores are collected and turned into tensors.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(12)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(10, 24), nn.Softplus(), nn.Linear(24, 3))

    def forward(self, x):
        return self.body(x)


def saliency(model, x, target):
    x = x.detach().requires_grad_(True)
    score = model(x).gather(1, target[:, None]).sum()
    (g,) = torch.autograd.grad(score, x)
    return g.abs()


@torch.no_grad()
def integrated_gradients(model, x, target, steps=8):
    baseline = torch.zeros_like(x)
    total = torch.zeros_like(x)
    for k in range(1, steps + 1):
        point = baseline + (k / steps) * (x - baseline)
        with torch.enable_grad():
            point.requires_grad_(True)
            score = model(point).gather(1, target[:, None]).sum()
            (g,) = torch.autograd.grad(score, point)
        total += g
    return (x - baseline) * total / steps


X = torch.randn(40, 10)
y = (X[:, :3].sum(1) > 0).long() + (X[:, 3] > 1).long()
model = Net().to(device)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(6):
    for i in range(0, 40, 10):
        xb, yb = X[i:i + 10].to(device), y[i:i + 10].to(device)
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()

model.eval()
sal_mass = 0.0
ig_mass = 0.0
top_feature = []
completeness = []
for i in range(0, 40, 10):
    xb, yb = X[i:i + 10].to(device), y[i:i + 10].to(device)
    pred = model(xb).argmax(1)
    s = saliency(model, xb, pred)
    a = integrated_gradients(model, xb, pred)
    sal_mass += s.sum().item()
    ig_mass += a.sum().item()
    top_feature.append(s.mean(0).argmax().item())
    gap = model(xb).gather(1, pred[:, None]).sum() - model(torch.zeros_like(xb)).gather(1, pred[:, None]).sum()
    completeness.append((a.sum() - gap).item())
print('saliency mass %.10f  ig mass %.10f' % (sal_mass, ig_mass))
print('top features', top_feature)
gaps = torch.tensor(completeness)
print('completeness gaps', gaps.dtype, gaps.tolist())
print('grads on params', sum(p.grad.abs().sum().item() for p in model.parameters()))
