# corpus: runnable
import torch
torch.manual_seed(0)
model = torch.nn.Linear(4, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.5)
data = [(torch.randn(8, 4), torch.randn(8, 2)) for _ in range(5)]
w_trace = []
for x, y in data:
    loss = ((model(x) - y) ** 2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    w_trace.append(model.weight[0, :1].item())
print(torch.tensor(w_trace))
h = torch.zeros(3)
hs = []
for t in range(4):
    h.mul_(0.5).add_(1.0)
    hs.append(h[:1].item())
print(torch.tensor(hs))
