# corpus: runnable
# Evaluation-looking loops in functions whose callers back-propagate what they return: a
# decorator that adds a penalty and calls `backward()`, `functools.partial` of the evaluator,
# an evaluator stored in a dict of metrics, one kept as an attribute of a trainer.
import functools

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 2))
loader = [(torch.randn(4, 4), torch.randint(0, 2, (4,))) for _ in range(3)]


def penalised(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        score = fn(*args, **kwargs)
        (0.01 * score).backward()
        return score
    return wrapper


@penalised
def evaluate(net, batches):
    model.eval()
    total = 0.0
    for x, y in batches:
        logits = net(x)
        total = total + nn.functional.cross_entropy(logits, y)
    return total / len(batches)


def validate(net, batches):
    net.eval()
    outs = []
    for x, _ in batches:
        outs.append(net(x))
    return torch.cat(outs).logsumexp(1).mean()


score = evaluate(model, loader)
print("penalised", round(score.item(), 5), model[0].weight.grad.abs().sum().item())
model.zero_grad()

val = functools.partial(validate, model)
v = val(loader)
v.backward()
print("partial", round(v.item(), 5), model[2].weight.grad.abs().sum().item())
model.zero_grad()

metrics = {"lse": validate}
m = metrics["lse"](model, loader)
m.backward()
print("dict metric", round(m.item(), 5), model[2].bias.grad.tolist())


class Trainer:
    def __init__(self, net):
        self.net = net
        self.check = validate

    def tune(self, batches):
        s = self.check(self.net, batches)
        s.backward()
        return s


model.zero_grad()
t = Trainer(model)
print("trainer", round(t.tune(loader).item(), 5), model[0].bias.grad.abs().sum().item())
