# corpus: runnable
import torch
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = torch.nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
micro = [(torch.randn(2, 4), torch.randn(2, 1)) for _ in range(4)]
for epoch in range(2):
    loss_sum = 0
    for x, y in micro:
        x, y = x.to(device), y.to(device)
        loss = ((model(x) - y) ** 2).mean()
        loss_sum += loss
    opt.zero_grad()
    loss_sum.backward()
    opt.step()
    print(round(loss_sum.item(), 5))
losses = []
for x, y in micro:
    x, y = x.to(device), y.to(device)
    losses.append(((model(x) - y) ** 2).mean())
final = sum(losses)
opt.zero_grad(); final.backward(); opt.step()
print(round(final.item(), 5))
def run():
    tot = 0
    for x, y in micro:
        x, y = x.to(device), y.to(device)
        tot = tot + ((model(x) - y) ** 2).mean()
    return tot
r = run()
r.backward()
print(model.weight.grad.sum().item())
