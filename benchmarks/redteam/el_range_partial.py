# corpus: runnable
import torch
torch.manual_seed(0)
x = torch.randn(6)
out = torch.zeros(6)
n = 4
for i in range(n):
    out[i] = x[i] * 3
print(out)
y = torch.zeros(6)
for i in range(len(x) - 1):
    y[i] = x[i + 1] - x[i]
print(y)
s = torch.zeros(6)
s[0] = x[0]
for i in range(1, len(x)):
    s[i] = s[i - 1] + x[i]
print(s)
d = torch.zeros(6)
for i in range(len(x)):
    d[i] = x[i] * i
print(d)
