# corpus: runnable
# Red team 24: constants built inside a `with torch.device("meta")` block or after
# `torch.set_default_device` in the loop (a hoisted factory would land on another device), and
# inside `torch.inference_mode()` (an inference tensor) then changed in place outside it
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(24)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(3, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
log = []
for step in range(3):
    with torch.device("meta"):
        probe = torch.zeros(4, 3)
        big = nn.Linear(3, 2)
    log.append((probe.is_meta, big.weight.is_meta))
    x = torch.randn(4, 3, device=device)
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
print("meta", log)

log = []
for step in range(3):
    torch.set_default_device("meta" if step % 2 else "cpu")
    scratch = torch.ones(2)
    log.append(scratch.is_meta)
    torch.set_default_device(None)
print("default device", log)

log = []
for step in range(3):
    with torch.inference_mode():
        ref = torch.zeros(3)
    ref.add_(1.0) if not ref.is_inference() else None
    log.append(ref.is_inference())
print("inference", log)
