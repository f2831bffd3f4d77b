# corpus: runnable
import torch
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = torch.nn.Linear(4, 2).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = [(torch.randn(8, 4), torch.randint(0, 2, (8,))) for _ in range(4)]
for x, y in data:
    x, y = x.to(device), y.to(device)
    delta = torch.zeros(8, 4, requires_grad=True).to(device)
    adv_loss = torch.nn.functional.cross_entropy(model(x + delta), y)
    adv_loss.backward()
    x_adv = x + 0.1 * delta.grad.sign()
    opt.zero_grad()
    loss = torch.nn.functional.cross_entropy(model(x_adv), y)
    loss.backward()
    opt.step()
    print(round(loss.item(), 5))
