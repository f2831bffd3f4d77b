# corpus: runnable
import torch
torch.manual_seed(0)
model = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
micro = [(torch.randn(2, 4), torch.randn(2, 1)) for _ in range(8)]
for step in range(2):
    total = 0
    for x, y in micro:
        loss = ((model(x) - y) ** 2).mean()
        total += loss
    opt.zero_grad()
    (total / len(micro)).backward()
    opt.step()
    print(round(total.item(), 5))
per = []
for x, y in micro:
    per.append(((model(x) - y) ** 2).mean())
opt.zero_grad()
torch.stack(per).mean().backward()
opt.step()
print(model.weight)
