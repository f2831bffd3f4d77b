# corpus: runnable
# Tensors built per step from plain attributes of modules that the modules change themselves: a
# Gumbel temperature annealed inside `forward`, a step counter a forward hook advances, a
# `model.apply` that resets a scale. Nothing in the loop assigns to these names.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class Annealed(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)
        self.tau = 1.0

    def forward(self, x):
        self.tau = max(0.25, self.tau * 0.5)
        return self.fc(x)


net = Annealed()
x = torch.randn(2, 4)
outs = []
for step in range(4):
    logits = net(x)
    temp = torch.full((1,), net.tau)
    outs.append(round((logits / temp).softmax(-1)[0, 0].item(), 5))
print("annealed", outs)

counter = nn.Linear(4, 1)
counter.seen = 0


def count(m, inp, out):
    m.seen += inp[0].size(0)


counter.register_forward_hook(count)
norms = []
for step in range(3):
    y = counter(x)
    denom = torch.tensor(float(counter.seen))
    norms.append(round((y.sum() / denom).item(), 5))
print("counted", norms)

model = nn.Sequential(nn.Linear(4, 4), nn.Linear(4, 1))
model.scale = 2.0


def halve(m):
    if isinstance(m, nn.Sequential):
        m.scale = m.scale / 2


vals = []
for step in range(3):
    model.apply(halve)
    s = torch.full((1,), model.scale)
    vals.append(round((model(x) * s).sum().item(), 5))
print("applied", vals)
