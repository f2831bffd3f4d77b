# corpus: runnable
# Element loops whose output aliases the input through a view (shifted slice, transpose,
# `view`), reads the loop index after the loop, runs Python-double arithmetic on `.item()`,
# floor-divides negative integers, and stops short of the output's length.
import math
import torch

torch.set_num_threads(1)
torch.manual_seed(0)

t = torch.arange(1.0, 9.0)
out = t[1:]
for i in range(len(out)):
    out[i] = t[i] * 2
print("A shifted view", t.tolist())

m = torch.arange(9.0).reshape(3, 3)
mt = m.T
for i in range(3):
    for j in range(3):
        mt[i, j] = m[i, j] + 1
print("B transpose", m.tolist())

x = torch.randn(6)
y = torch.empty(6)
for i in range(len(x)):
    y[i] = x[i].item() / 3.0 + 0.1
print("C item double", [repr(v) for v in y.tolist()])

a = torch.tensor([-7, -3, 5, 9])
b = torch.empty_like(a)
for i in range(len(a)):
    b[i] = a[i] // 2
print("D floor", b.tolist())

s = torch.randn(5)
r = torch.zeros(5)
for i in range(len(s)):
    r[i] = s[i] * 3
print("E loop index after", i, r.tolist())

p = torch.randn(8)
q = torch.zeros(8)
for i in range(6):
    q[i] = p[i] + 1
print("F short", q.tolist())

v = torch.arange(6.0)
vv = v.view(2, 3)[0]
for i in range(len(vv)):
    v[i + 3] = vv[i] * 10
print("G view", v.tolist())

z = torch.randn(4)
w = torch.zeros(4)
for i in range(len(z)):
    w[i] = math.exp(z[i])
print("H math", [repr(u) for u in w.tolist()])
