# corpus: runnable
# Loops that look like evaluation but depend on grad mode or autograd state: MC dropout with
# `model.train()` toggled inside, `requires_grad_()` on the input then its `.grad` read after a
# backward in a helper, `torch.set_grad_enabled(phase == "train")`, batchnorm statistics,
# `retain_grad()` on an output and a later backward of a list the loop filled.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
net = nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Dropout(0.3), nn.Linear(8, 2)).to(device)
data = [torch.randn(6, 4) for _ in range(3)]

net.eval()
samples = 0.0
for xb in data:
    net.train()
    out = net(xb.to(device))
    net.eval()
    samples += out.var().item()
print("mc dropout", round(samples, 5), round(net[1].running_mean.sum().item(), 5))


def saliency(outputs, inputs):
    torch.stack([o.sum() for o in outputs]).sum().backward()
    return [round(i.grad.abs().sum().item(), 5) for i in inputs]


net.eval()
inputs, outputs = [], []
for xb in data:
    xb = xb.to(device).requires_grad_()
    inputs.append(xb)
    outputs.append(net(xb))
print("saliency", saliency(outputs, inputs))

kept = []
net.eval()
for xb in data:
    o = net(xb.to(device))
    o.retain_grad()
    kept.append(o)
sum(k.sum() for k in kept).backward()
print("retained", round(kept[0].grad.sum().item(), 5))

for phase in ["train", "val"]:
    net.train(phase == "train")
    total = 0.0
    with torch.set_grad_enabled(phase == "train"):
        for xb in data:
            out = net(xb.to(device))
            total += out.pow(2).mean().item()
    print(phase, round(total, 5))
