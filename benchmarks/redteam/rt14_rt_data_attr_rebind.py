# corpus: runnable
# Old-style training code that changes a tensor by rebinding its `.data` (manual SGD,
# clipping by `.data = ...`), by `set_`, by `resize_`, or by `.grad = None`: the name `w` is
# never assigned and no in-place method is called on `w` itself.
import torch

torch.manual_seed(0)
torch.set_num_threads(1)
w = torch.randn(3, requires_grad=True)
x = torch.randn(3)
snaps = []
for step in range(3):
    ref = torch.tensor(w.tolist())
    loss = (w * x).sum() ** 2
    loss.backward()
    w.data = w.data - 0.1 * w.grad
    w.grad = None
    snaps.append(round(ref.sum().item(), 5))
print("w.data =", snaps)

v = torch.ones(4)
sizes = []
for step in range(3):
    shape = torch.tensor(v.shape)
    v.set_(torch.ones(4 + step + 1))
    sizes.append(shape.tolist())
print("set_", sizes)

u = torch.ones(2)
sizes = []
for step in range(3):
    n = torch.tensor(u.numel())
    u.resize_(u.numel() + 1)
    sizes.append(n.item())
print("resize_", sizes)

p = torch.nn.Parameter(torch.ones(3))
vals = []
for step in range(3):
    q = torch.tensor(p.detach().numpy().copy())
    p.data = p.data.clamp(max=0.5) * (step + 2)
    vals.append(q.sum().item())
print("param.data clamp", vals)
