# corpus: runnable
# Red team 24: evaluation loops that need autograd although they never call backward: a forward
# hook that registers a tensor hook / retains the activation's gradient (Grad-CAM set-up), a
# physics-informed model whose forward differentiates its output, a forward reading `grad_fn`
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(24)
device = "cuda" if torch.cuda.is_available() else "cpu"


class CamHooks:
    """Keeps the last activation and its gradient, as Grad-CAM helpers do."""

    def __init__(self, layer: nn.Module) -> None:
        self.activation = None
        self.gradient = None
        layer.register_forward_hook(self.save)

    def save(self, module, inputs, output):
        self.activation = output
        output.register_hook(self.keep_grad)

    def keep_grad(self, grad):
        self.gradient = grad


net = nn.Sequential(nn.Linear(6, 5), nn.ReLU(), nn.Linear(5, 3)).to(device)
cam = CamHooks(net[0])
val = [(torch.randn(4, 6, device=device), torch.randint(0, 3, (4,), device=device)) for _ in range(3)]
net.eval()
hits = 0
for xb, yb in val:
    logits = net(xb)
    hits += int((logits.argmax(1) == yb).sum())
print("cam", hits, tuple(cam.activation.shape))


class Keeper(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(4, 2)
        self.kept = []

    def forward(self, x):
        h = self.fc(x)
        h.retain_grad()
        self.kept.append(h)
        return h


keeper = Keeper().to(device)
keeper.eval()
vals = []
for xb in [torch.randn(3, 4, device=device) for _ in range(3)]:
    vals.append(round(keeper(xb).sum().item(), 5))
print("retain", vals, len(keeper.kept))


class Pinn(nn.Module):
    """u(x) and its derivative du/dx from autograd, as physics-informed models compute residuals."""

    def __init__(self) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(1, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, x):
        x = x.clone().requires_grad_(True)
        u = self.body(x)
        (du,) = torch.autograd.grad(u.sum(), x, create_graph=True)
        return u, du


pinn = Pinn().to(device)
pinn.eval()
residuals = []
for xb in [torch.linspace(0, 1, 5, device=device).unsqueeze(1) + k for k in range(3)]:
    u, du = pinn(xb)
    residuals.append(round((du - u).pow(2).mean().item(), 5))
print("pinn", residuals)


class Traced(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        out = self.fc(x)
        return out * 2 if out.grad_fn is not None else out


traced = Traced().to(device)
traced.eval()
sums = []
for xb in [torch.randn(3, 4, device=device) for _ in range(3)]:
    sums.append(round(traced(xb).sum().item(), 5))
print("grad_fn", sums)
