# corpus: runnable
# Losses summed over micro-batches then back-propagated through a grad scaler, `torch.autograd.backward`,
# `torch.autograd.grad`, an alias, a dict entry, or `sum(list)`.
import torch

torch.manual_seed(0)
model = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
scaler = torch.amp.GradScaler("cpu", enabled=False)
chunks = [torch.randn(2, 3) for _ in range(3)]

for epoch in range(2):
    total = 0
    for c in chunks:
        total += model(c).pow(2).mean()
    opt.zero_grad()
    scaler.scale(total).backward()
    scaler.step(opt)
    scaler.update()
print(model.weight.data)

for epoch in range(2):
    total = 0
    for c in chunks:
        total += model(c).pow(2).mean()
    opt.zero_grad()
    torch.autograd.backward(total)
    opt.step()
print(model.weight.data)

for epoch in range(2):
    total = 0
    for c in chunks:
        total += model(c).pow(2).mean()
    g = torch.autograd.grad(total, model.weight)
    print(g[0])

logs = {"loss": 0}
for c in chunks:
    logs["loss"] += model(c).pow(2).mean()
opt.zero_grad()
logs["loss"].backward()
print(model.weight.grad)

per = []
for c in chunks:
    per.append(model(c).pow(2).mean())
opt.zero_grad()
sum(per).backward()
print(model.weight.grad)

acc = 0
for c in chunks:
    acc += model(c).pow(2).mean()
loss_ref = acc
opt.zero_grad()
(loss_ref / 3).backward()
print(model.weight.grad)

acc = 0
for c in chunks:
    acc = acc + model(c).pow(2).mean()
print(acc.requires_grad)
