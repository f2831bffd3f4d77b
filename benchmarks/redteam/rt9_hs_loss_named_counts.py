# corpus: runnable
# Evaluation helpers whose "criterion" is not a float loss: a zero-one error counter passed as
# `criterion`, a scripted top-1 miss counter named `loss_fn`, a `metric` returning a bool. The
# running sums are integer counts; read back as floats they print `7.0`.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class ZeroOne(nn.Module):
    def forward(self, logits, y):
        return (logits.argmax(1) != y).sum()


def errors(logits, y):
    return (logits.argmax(1) != y).sum()


def evaluate(model, loader, criterion):
    model.eval()
    total = 0
    for x, y in loader:
        total += criterion(model(x), y).item()
    return total


def evaluate2(model, loader, loss_fn):
    miss = 0
    with torch.no_grad():
        for x, y in loader:
            miss += loss_fn(model(x), y).item()
    return miss


model = nn.Linear(4, 3)
loader = [(torch.randn(5, 4), torch.randint(0, 3, (5,))) for _ in range(4)]
print("zero-one", evaluate(model, loader, ZeroOne()))
print("function", evaluate(model, loader, errors))
print("scripted", evaluate2(model, loader, torch.jit.script(ZeroOne())))
print("cross entropy", round(evaluate(model, loader, nn.CrossEntropyLoss()), 5))
