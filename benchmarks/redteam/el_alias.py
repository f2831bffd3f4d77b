# corpus: runnable
import torch
torch.manual_seed(0)
A = torch.randn(4, 4)
At = A.t()
for i in range(A.size(0)):
    A[i] = (A[i] + At[i]) / 2
print(A)
B = torch.randn(5)
for i in range(len(B)):
    B[i] = B[i] * 2 + 1
print(B)
print(i)
w = torch.randn(3)
t = torch.randn(3)
out = torch.zeros(3, 3)
for i in range(t.size(0)):
    out[i] = t[i] * w
print(out)
