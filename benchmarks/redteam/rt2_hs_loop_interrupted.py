# corpus: runnable
# A loss total accumulated with .item() in a loop that an exception can leave (the common
# `except KeyboardInterrupt` around training, an early stop raised from the loop): the code after
# the handler reads the total.
import torch
import torch.nn as nn

torch.manual_seed(0)


class EarlyStop(Exception):
    pass


net = nn.Linear(3, 1)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
batches = [torch.randn(4, 3) for _ in range(6)]
total = 0.0
try:
    for i, x in enumerate(batches):
        loss = net(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
        if i == 3:
            raise EarlyStop()
except EarlyStop:
    print("stopped early")
print("total", round(total, 5), type(total).__name__)


def train_epoch(data):
    seen = 0.0
    try:
        for x in data:
            loss = net(x).abs().mean()
            seen += loss.item()
            if seen > 1.5:
                raise EarlyStop()
    except EarlyStop:
        pass
    return seen


print(round(train_epoch(batches), 5))
