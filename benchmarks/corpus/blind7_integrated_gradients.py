# corpus: runnable
"""Attribution evaluation for a tabular classifier with integrated gradients: after training,
the model is put in `eval()` and the attribution loop needs input gradients, so it must not be
run under `no_grad`; the baseline path's interpolation coefficients are rebuilt for every
example although `steps` never changes."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

X = torch.randn(800, 6)
y = (2 * X[:, 0] - X[:, 3] > 0).long()
X, y = X.to(device), y.to(device)
model = nn.Sequential(nn.Linear(6, 32), nn.Tanh(), nn.Linear(32, 2)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(100):
    loss = F.cross_entropy(model(X[:600]), y[:600])
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"train loss {loss.item():.4f}")


def integrated_gradients(net, x, target, steps=32):
    alphas = torch.linspace(0, 1, steps, device=x.device)[:, None]  # paef: expect redundant-tensor
    path = (alphas * x[None]).requires_grad_(True)
    out = net(path)[:, target].sum()
    (grad,) = torch.autograd.grad(out, path)
    return x * grad.mean(0)


model.eval()
attr = torch.zeros(6, device=device)
for i in range(600, 700):  # paef: ok elementwise-loop
    a = integrated_gradients(model, X[i], y[i])  # paef: refuse eval-without-no-grad
    attr += a.abs()
ranking = attr.argsort(descending=True).tolist()
print(f"feature ranking {ranking}, top share {(attr.max() / attr.sum()).item():.3f}")
