# corpus: runnable
# Tensors built inside training loops that look loop-invariant: an FGSM/PGD perturbation leaf
# `torch.zeros(..., requires_grad=True)` made per batch (its `.grad` accumulates), a mask made
# while `torch.set_grad_enabled(phase == "train")` is in force, class weights built from a list,
# and a label-smoothing table built under autocast.
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"

model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
data = [(torch.randn(6, 4), torch.randint(0, 3, (6,))) for _ in range(4)]
counts = [10, 5, 2]

for x, y in data:
    x, y = x.to(device), y.to(device)
    delta = torch.zeros(6, 4, device=device, requires_grad=True)
    for _ in range(2):
        adv_loss = nn.functional.cross_entropy(model(x + delta), y)
        adv_loss.backward()
        with torch.no_grad():
            delta += 0.01 * delta.grad.sign()
    weights = torch.tensor([1.0 / c for c in counts], device=device)
    loss = nn.functional.cross_entropy(model(x + delta.detach()), y, weight=weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(round(loss.item(), 6), round(delta.grad.abs().sum().item(), 6))

for phase in ("train", "val"):
    torch.set_grad_enabled(phase == "train")
    for x, y in data[:2]:
        scale = torch.ones(3, device=device, requires_grad=True)
        out = model(x.to(device)) * scale
        print(phase, out.requires_grad, scale.requires_grad)
        if phase == "train":
            out.sum().backward()
            print("  ", scale.grad.tolist())
torch.set_grad_enabled(True)

for x, y in data[:2]:
    with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
        smooth = torch.full((3, 3), 0.1 / 2).fill_diagonal_(0.9) @ torch.eye(3)
        out = model(x.to(device))
    print(smooth.dtype, round((out.float().softmax(-1) @ smooth.float()).sum().item(), 4))
