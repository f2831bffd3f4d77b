# corpus: runnable
import torch
torch.manual_seed(0)
x = torch.randn(5, dtype=torch.float64)
out = torch.zeros(5)
for i in range(len(x)):
    out[i] = x[i] * 1e-8 + 1
print(out.tolist())
lab = torch.randint(0, 3, (5,))
f = torch.zeros(5)
for i in range(len(lab)):
    f[i] = lab[i] / 2
print(f)
m = torch.zeros(5, dtype=torch.long)
for i in range(len(x)):
    m[i] = x[i] > 0
print(m)
