# corpus: runnable
# Tables built in float32 then moved and converted in one `.to(device, dtype)` call: the value is
# rounded to float32 first. Built directly in the target dtype (`torch.tensor(..., dtype=...,
# device=...)`) the values differ (0.1 in float64, an arange of 0.1 steps in half, a seeded draw).
import torch

torch.manual_seed(0)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"
w = torch.zeros(3, dtype=torch.float64, device=device, requires_grad=True)

rows = []
for step in range(3):
    torch.manual_seed(step)
    scale = torch.tensor([0.1, 0.2, 0.3]).to(device, torch.float64)
    third = torch.full((3,), 1.0 / 3.0).to(device, dtype=torch.float64)
    grid = torch.arange(0, 1, 0.1).to(device, torch.float16)
    noise = torch.randn(3).to(device, torch.float64)
    lin = torch.linspace(0, 1, 7).to(device).double()
    loss = ((w - scale * third) ** 2).sum() + noise.sum() * 0
    loss.backward()
    with torch.no_grad():
        w -= 0.5 * w.grad
    w.grad = None
    rows.append((repr(scale[0].item()), repr(third[0].item()), grid.numel(), repr(grid[-1].item()), repr(noise[0].item()), repr(lin[1].item())))
print(rows)
print(repr(w.sum().item()))
