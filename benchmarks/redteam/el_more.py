# corpus: runnable
import torch
torch.manual_seed(0)
x = torch.randn(5, 3)
y = torch.zeros(5, 3)
for i in range(x.size(0)):
    y[i] = torch.relu(x[i]) + 1
print(y)
emb = torch.randn(5, 3, requires_grad=True)
z = torch.zeros(5, 3)
for i in range(len(emb)):
    z[i] = emb[i] * 2
print(z.requires_grad, z.sum().item())
src = torch.randn(4, 3)
dst = torch.zeros(4, 3)
cnt = 0
for i in range(src.shape[0]):
    dst[i] = src[i] * 0.5
    cnt += 1
print(dst, cnt)
a = torch.randn(4)
b = torch.zeros(4)
for i in range(a.numel()):
    b[i] = a[i] if a[i] > 0 else 0
print(b)
q = torch.randn(4, 2)
r = torch.zeros(4, 2)
for j in range(q.size(0)):
    r[j] = q[j].clamp(min=0) ** 2
print(r, j)
