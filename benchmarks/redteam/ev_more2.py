# corpus: runnable
import torch
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = torch.nn.Linear(4, 2).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = [(torch.randn(8, 4), torch.randint(0, 2, (8,))) for _ in range(4)]
feats = []
for x, y in data:
    x = x.to(device)
    feats.append(model(x))
probe_loss = torch.stack(feats).pow(2).mean()
opt.zero_grad(); probe_loss.backward(); opt.step()
print(model.weight.sum().item())
outs = {}
for i, (x, y) in enumerate(data):
    x = x.to(device)
    outs[i] = model(x)
loss = sum(o.sum() for o in outs.values())
loss.backward()
print(model.weight.grad.sum().item())
cache = []
for x, y in data:
    cache.append((model(x.to(device)), y))
for out, y in cache:
    l = torch.nn.functional.cross_entropy(out, y.to(device))
    l.backward(retain_graph=True)
print(model.bias.grad.sum().item())
