# corpus: runnable
"""Per-step host syncs spelled less directly: a device test in the `elif` of a rarely true test,
a conditional expression on the loss, and `.to(cpu_device)` with `cpu_device =
torch.device("cpu")` (the torchvision references' spelling of `.cpu()`). Near misses: an `elif`
after a flag, the read of a copy already on the host, the evaluation pass's gathered predictions."""
import torch
import torch.nn as nn

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
cpu_device = torch.device("cpu")
model = nn.Linear(8, 3).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
X, Y = torch.randn(256, 8, device=device), torch.randint(0, 3, (256,), device=device)
warned = False
history = []
for step in range(32):
    i = (step * 16) % 256
    out = model(X[i : i + 16])
    loss = nn.functional.cross_entropy(out, Y[i : i + 16])
    if step == 0:
        print("first step")
    elif loss > 100.0:  # paef: expect host-sync
        print("loss exploded")
    if not warned:
        warned = True
    elif loss > 50.0:
        print("large loss")
    scale = 0.5 if loss > 10.0 else 1.0  # paef: expect host-sync
    opt.zero_grad()
    (loss * scale).backward()
    opt.step()
    held = loss.detach().to(cpu_device)  # paef: expect host-sync
    history.append(round(float(held), 4))
model.eval()
preds = []
with torch.no_grad():
    for i in range(0, 256, 64):
        preds.append(model(X[i : i + 64]).argmax(1).to(cpu_device))
print("loss", history[0], history[-1], "correct", int((torch.cat(preds) == Y.cpu()).sum()))
