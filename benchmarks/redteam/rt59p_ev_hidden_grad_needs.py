# corpus: runnable
# Red team 59 probe (NOT blind): evaluation loops that look like plain measurement (model.eval(), a forward, values
# read back with .tolist()) but need autograd for reasons the loop does not show: a physics-informed model whose
# `residual` method differentiates its output with respect to the input, a forward hook registered through
# getattr with a computed method name that puts a tensor hook on the layer's output, and the same hook registered
# by calling the unbound `nn.Module.register_forward_hook`.
import torch
import torch.nn as nn

torch.manual_seed(5956)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'


class PINN(nn.Module):
    """u(x) for u'' = -sin(x); the residual needs du/dx and d2u/dx2."""

    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(1, 24), nn.Tanh(), nn.Linear(24, 24), nn.Tanh(), nn.Linear(24, 1))

    def forward(self, x):
        return self.net(x)

    def residual(self, x):
        x = x.requires_grad_(True)
        u = self(x)
        du, = torch.autograd.grad(u.sum(), x, create_graph=True)
        d2u, = torch.autograd.grad(du.sum(), x, create_graph=True)
        return d2u + torch.sin(x)


pinn = PINN().to(device)
opt = torch.optim.Adam(pinn.parameters(), lr=5e-3)
for it in range(80):
    xc = torch.rand(64, 1, device=device) * 6.28
    loss = pinn.residual(xc).pow(2).mean() + (pinn(torch.zeros(1, 1, device=device)) ** 2).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()

# 1: the residual on a validation grid
pinn.eval()
grid = torch.linspace(0, 6.28, 120, device=device).unsqueeze(1)
res1 = []
for i in range(0, 120, 30):
    r = pinn.residual(grid[i:i + 30].clone())
    res1.extend(r.squeeze(1).tolist())

# 2: a hook registered through getattr with a computed name
clf = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2)).to(device)
grad_seen = []


def watch_output(module, inputs, output):
    output.register_hook(lambda g: grad_seen.append(g.abs().sum().item()))


for kind, fn in {"forward": watch_output}.items():
    getattr(clf[2], f"register_{kind}_hook")(fn)

xs = torch.randn(90, 4, device=device)
clf.eval()
out2 = []
for i in range(0, 90, 30):
    logits = clf(xs[i:i + 30])
    out2.extend(logits.argmax(1).tolist())

# 3: the unbound registration
clf3 = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2)).to(device)
nn.Module.register_forward_hook(clf3[0], watch_output)
clf3.eval()
out3 = []
for i in range(0, 90, 30):
    logits = clf3(xs[i:i + 30])
    out3.extend(logits.max(1).values.tolist())

print("1", round(sum(abs(v) for v in res1) / len(res1), 5))
print("2", sum(out2), len(grad_seen))
print("3", round(sum(out3), 4), len(grad_seen))
