# corpus: runnable
# Evaluation loops whose model or body depends on the grad mode: a forward that branches on
# `torch.is_grad_enabled()` (checkpointing-style), saliency maps under `torch.enable_grad()`,
# `set_grad_enabled(True)` inside the loop, `requires_grad_()` on the inputs, tensor hooks,
# an output whose `.requires_grad` decides what is logged.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)
        self.calls_with_grad = 0

    def forward(self, x):
        if torch.is_grad_enabled():
            self.calls_with_grad += 1
            return self.fc(x) * 1.0
        return self.fc(x)


model = Net().to(device)
batches = [(torch.randn(5, 4), torch.randint(0, 3, (5,))) for _ in range(3)]

model.eval()
correct = 0
for xb, yb in batches:
    xb, yb = xb.to(device), yb.to(device)
    pred = model(xb).argmax(1)
    correct += int((pred == yb).sum())
print("acc", correct, "grad calls", model.calls_with_grad)


def saliency(net, data):
    net.eval()
    maps = []
    for xb, _ in data:
        xb = xb.to(device)
        out = net(xb)
        with torch.enable_grad():
            xg = xb.clone().requires_grad_()
            score = net(xg).max(1).values.sum()
            g, = torch.autograd.grad(score, xg)
        maps.append(g.abs().mean().item() + out.mean().item())
    return maps


print("saliency", [round(m, 5) for m in saliency(model, batches)])


def grad_norms(net, data):
    net.eval()
    norms = []
    for xb, yb in data:
        xb, yb = xb.to(device), yb.to(device)
        torch.set_grad_enabled(True)
        out = net(xb)
        loss = nn.functional.cross_entropy(out, yb)
        gs = torch.autograd.grad(loss, list(net.parameters()))
        norms.append(sum(float(g.norm()) for g in gs))
    return norms


print("norms", [round(n, 5) for n in grad_norms(model, batches)])

hooked = []
model.eval()
for xb, _ in batches:
    out = model(xb.to(device))
    if out.requires_grad:
        out.register_hook(lambda g: hooked.append(g.sum().item()))
    hooked.append(round(out.sum().item(), 4))
print("hooked", hooked)

model.eval()
logs = []
for xb, _ in batches:
    out = model(xb.to(device))
    logs.append("train-mode" if out.grad_fn is not None else "eval-mode")
print(logs)
