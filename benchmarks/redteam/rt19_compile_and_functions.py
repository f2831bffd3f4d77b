# corpus: runnable
# `torch.compile`d functions (the eager backend, as a CPU stand-in for inductor) and a custom
# `autograd.Function` with `ctx.save_for_backward` / `ctx.mark_dirty`: hand-written activations
# inside a compiled function, constants built inside a compiled step, an in-place Function applied
# in an evaluation loop, and a Function whose forward records what it saw.
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"

seen_shapes = []


class ScaledTanh(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale):
        y = torch.tanh(x) * scale
        ctx.save_for_backward(y)
        ctx.scale = scale
        seen_shapes.append(tuple(x.shape))
        return y

    @staticmethod
    def backward(ctx, g):
        (y,) = ctx.saved_tensors
        return g * (ctx.scale - y * y / ctx.scale), None


class ClampInPlace(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.mark_dirty(x)
        return x.clamp_(-1.0, 1.0)

    @staticmethod
    def backward(ctx, g):
        return g


@torch.compile(backend="eager")
def mlp_act(x):
    return x * torch.sigmoid(1.702 * x)


@torch.compile(backend="eager")
def step_loss(model, x, y):
    w = torch.linspace(0.5, 1.5, y.shape[1], device=x.device)
    return ((model(x) - y).pow(2) * w).mean()


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(6, 12)
        self.b = nn.Linear(12, 3)

    def forward(self, x):
        h = ScaledTanh.apply(self.a(x), 1.5)
        return self.b(mlp_act(h))


model = Net().to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
data = [(torch.randn(8, 6), torch.randn(8, 3)) for _ in range(5)]
running = 0.0
for x, y in data:
    loss = step_loss(model, x.to(device), y.to(device))
    opt.zero_grad()
    loss.backward()
    opt.step()
    running += loss.item()
print("train", repr(running), len(seen_shapes))

model.eval()
clipped = []
for x, _ in data:
    h = model.a(x.to(device))
    h = ClampInPlace.apply(h)
    clipped.append(h.abs().max().item())
    out = model(x.to(device))
print("eval", clipped, out.requires_grad, out.grad_fn is not None, len(seen_shapes))
