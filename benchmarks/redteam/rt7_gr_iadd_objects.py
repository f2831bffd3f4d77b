# corpus: runnable
# `x += loss` where `x` is not a number: a user class whose `__iadd__` keeps the tensor and
# back-propagates later, a list (`+=` extends), a tensor accumulator read with `.grad_fn`,
# a `nonlocal` total back-propagated by the enclosing function, a total rebound by a walrus.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
model = nn.Linear(3, 1)
data = [(torch.randn(4, 3), torch.randn(4, 1)) for _ in range(3)]


class LossBag:
    def __init__(self):
        self.items = []

    def __iadd__(self, t):
        self.items.append(t)
        return self

    def backward(self):
        torch.stack(self.items).sum().backward()


bag = LossBag()
for xb, yb in data:
    loss = nn.functional.mse_loss(model(xb), yb)
    bag += loss
model.zero_grad()
bag.backward()
print("bag", model.weight.grad.round(decimals=5).tolist())

parts = []
for xb, yb in data:
    loss = nn.functional.l1_loss(model(xb), yb)
    parts += [loss]
model.zero_grad()
sum(parts).backward()
print("list +=", model.bias.grad.round(decimals=5).tolist())

acc = torch.zeros(())
for xb, yb in data:
    loss = nn.functional.mse_loss(model(xb), yb)
    acc += loss
print("grad_fn", type(acc.grad_fn).__name__)


def epoch():
    total = 0.0

    def add(xb, yb):
        nonlocal total
        loss = nn.functional.mse_loss(model(xb), yb)
        total += loss

    for xb, yb in data:
        add(xb, yb)
    model.zero_grad()
    total.backward()
    return model.weight.grad.round(decimals=5).tolist()


print("nonlocal", epoch())

running = 0.0
for xb, yb in data:
    running += (loss := nn.functional.mse_loss(model(xb), yb))
model.zero_grad()
(running / len(data)).backward()
print("walrus", model.weight.grad.round(decimals=5).tolist())
