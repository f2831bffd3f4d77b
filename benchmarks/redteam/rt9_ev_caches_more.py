# corpus: runnable
# Second wave (attacks the eval fixes): a forward that caches through a helper method, a cache
# set with `setattr`, and an evaluation function wrapped by assignment (`evaluate =
# penalised(evaluate)`) rather than with `@`.
import functools

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class Cached(nn.Module):
    def __init__(self):
        super().__init__()
        self.gain = nn.Parameter(torch.ones(2))
        self.fc = nn.Linear(4, 2)
        self._scale = None

    def scale(self):
        if self._scale is None:
            self._scale = self.gain * 2.0
        return self._scale

    def forward(self, x):
        return self.fc(x) * self.scale()


class SetAttr(nn.Module):
    def __init__(self):
        super().__init__()
        self.gain = nn.Parameter(torch.ones(2))
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        if not hasattr(self, "_g"):
            setattr(self, "_g", self.gain + 1.0)
        return self.fc(x) * self._g


xs, ys = torch.randn(6, 4), torch.randn(6, 2)
for model in (Cached(), SetAttr()):
    model.eval()
    val = []
    for x in xs.split(2):
        val.append(model(x).sum().item())
    model.train()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(2):
        loss = (model(xs) - ys).pow(2).mean()
        opt.zero_grad()
        loss.backward(retain_graph=True)
        opt.step()
    print(type(model).__name__, [round(v, 5) for v in val], model.gain.tolist())


def penalised(fn):
    @functools.wraps(fn)
    def wrapper(*args):
        score = fn(*args)
        score.backward()
        return score
    return wrapper


net = nn.Linear(4, 1)


def evaluate(batches):
    net.eval()
    total = 0.0
    for x in batches:
        total = total + net(x).pow(2).mean()
    return total


evaluate = penalised(evaluate)
print("wrapped", round(evaluate(xs.split(3)).item(), 5), net.weight.grad.tolist())
