# corpus: runnable
# Evaluation loops over models that register tensor hooks in their forward (Grad-CAM style:
# a forward hook calls `output.register_hook`), a forward that calls `retain_grad()`, a module
# whose forward reads `torch.is_grad_enabled()` to pick its path, a helper that checks
# `out.requires_grad` before logging.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2)).eval()
saved = []


def keep_grad(module, inp, out):
    saved.append(out.shape)
    out.register_hook(lambda g: None)


net[0].register_forward_hook(keep_grad)
outs = []
for x in torch.randn(3, 2, 3):
    outs.append(round(net(x).sum().item(), 4))
print("grad-cam hook", outs, len(saved))


class Retaining(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 3)

    def forward(self, x):
        h = self.fc(x)
        h.retain_grad()
        self.h = h
        return h.tanh()


r = Retaining().eval()
outs = []
for x in torch.randn(2, 3):
    outs.append(round(r(x).sum().item(), 4))
print("retain_grad", outs)


class PathPicker(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 1)

    def forward(self, x):
        if torch.is_grad_enabled():
            return self.fc(x)
        return self.fc(x) * 0 + 1


pp = PathPicker().eval()
outs = []
for x in torch.randn(2, 3):
    outs.append(round(pp(x).item(), 4))
print("grad-enabled path", outs)


def describe(out):
    return "graph" if out.requires_grad else "plain"


clf = nn.Linear(3, 1).eval()
tags = []
for x in torch.randn(2, 3):
    tags.append(describe(clf(x)))
print("requires_grad tag", tags)
