# corpus: runnable
import torch
torch.manual_seed(0)
model = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
micro = [(torch.randn(2, 4), torch.randn(2, 1)) for _ in range(4)]
def accumulate(batches):
    total = 0.0
    for x, y in batches:
        loss = ((model(x) - y) ** 2).mean()
        total = total + loss
    return total
def step(t):
    opt.zero_grad(); t.backward(); opt.step()
for epoch in range(2):
    t = accumulate(micro)
    step(t)
    print(round(float(t), 5))
