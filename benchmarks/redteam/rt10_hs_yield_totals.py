# corpus: runnable
# Training loops written as generators that yield the running loss sum after every step (a
# progress feed for a dashboard). The consumer reads the yielded sums while the loop is still
# running and serialises them to JSON: they must be Python floats at every yield.
import json

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(4)]


def train(epochs):
    for epoch in range(epochs):
        running = 0.0
        for x, y in data:
            loss = nn.functional.mse_loss(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            running += loss.item()
            yield epoch, running


feed = []
for epoch, running in train(2):
    feed.append({"epoch": epoch, "running": round(running, 5)})
print(json.dumps(feed))


def evaluate():
    seen = 0.0
    for x, y in data:
        seen += nn.functional.l1_loss(model(x), y).item()
        yield seen


print(json.dumps([round(v, 5) for v in evaluate()]))
