# corpus: runnable
import torch
torch.manual_seed(0)
logits = torch.randn(4, 5)
probs = torch.zeros(4, 5)
for i in range(logits.size(0)):
    probs[i] = torch.softmax(logits[i], dim=0)
print(probs)
x = torch.randn(4, 3)
y = torch.zeros(4, 3)
for i in range(x.shape[0]):
    y[i] = x[i] - x[i].mean()
print(y)
z = torch.zeros(4, 3)
for i in range(x.shape[0]):
    z[i] = torch.nn.functional.normalize(x[i], dim=0)
print(z)
c = torch.zeros(4, 3)
for i in range(x.shape[0]):
    c[i] = torch.cumsum(x[i], 0)
print(c)
n = torch.zeros(4)
for i in range(x.shape[0]):
    n[i] = x[i].norm()
print(n)
