# corpus: runnable
# Evaluation helpers whose outputs leave through `return`, `yield`, a `global`, a closure's
# `nonlocal`, or a callback: the caller back-propagates (test-time adaptation, distillation).
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(4, 2)
batches = [torch.randn(3, 4) for _ in range(3)]
last_out = None


def predict_all(net, data):
    net.eval()
    preds = []
    for xb in data:  # paef: refuse eval-without-no-grad
        preds.append(net(xb))
    return torch.cat(preds)


def predict_iter(net, data):
    net.eval()
    for xb in data:  # paef: refuse eval-without-no-grad
        yield net(xb)


def predict_global(net, data):
    global last_out
    net.eval()
    for xb in data:  # paef: refuse eval-without-no-grad
        last_out = net(xb)


def make_collector():
    found = []

    def run(net, data):
        net.eval()
        for xb in data:  # paef: refuse eval-without-no-grad
            found.append(net(xb))
        return len(found)

    return found, run


def predict_cb(net, data, on_output):
    net.eval()
    for xb in data:  # paef: refuse eval-without-no-grad
        on_output(net(xb))


entropy = lambda p: -(p.softmax(-1) * p.log_softmax(-1)).sum()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
entropy(predict_all(model, batches)).backward()
print(model.bias.grad)
model.zero_grad()
sum(o.sum() for o in predict_iter(model, batches)).backward()
print(model.bias.grad)
model.zero_grad()
predict_global(model, batches)
last_out.pow(2).sum().backward()
print(model.bias.grad)
model.zero_grad()
found, run = make_collector()
run(model, batches)
found[1].sum().backward()
print(model.bias.grad)
model.zero_grad()
kept = []
predict_cb(model, batches, kept.append)
kept[0].sum().backward()
print(model.bias.grad)
