# corpus: runnable
# Running loss totals whose derived values are kept as tensors and read as graphs after the
# loop: an average appended to a history and asked `requires_grad`, a ratio bound then
# back-propagated, the total scaled into an attribute, a total passed through `torch.stack`.
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(0)
model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
data = [(torch.randn(4, 3), torch.randn(4, 1)) for _ in range(4)]

history = []
total = 0
for k, (x, y) in enumerate(data):
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    total += loss
    history.append(total / (k + 1))
print("A", [h.requires_grad for h in history], [round(h.item(), 5) for h in history])

run = 0
for x, y in data:
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward(retain_graph=True)
    opt.step()
    run = run + loss
avg = run / len(data)
print("B", avg.requires_grad, avg.grad_fn is not None)


class Log:
    pass


log = Log()
acc = 0.0
for x, y in data:
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    acc += loss
    log.scaled = acc * 2
print("C", log.scaled.requires_grad)

parts = []
tot = 0
for x, y in data:
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    tot = tot + loss
    parts.append(tot.unsqueeze(0))
print("D", torch.cat(parts).requires_grad)
