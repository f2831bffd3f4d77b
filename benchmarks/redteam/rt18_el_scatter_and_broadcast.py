# corpus: runnable
# Element loops with repeated target positions (a scatter-add where two rows land on one
# bucket), a bias broadcast from a 1-element tensor, an integer output given float values, a
# reduction into a Python number, an output that is the input itself.
import torch

torch.set_num_threads(1)
torch.manual_seed(0)

idx = torch.tensor([0, 2, 2, 1, 0])
v = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0])
bins = torch.zeros(3)
for i in range(len(idx)):
    bins[idx[i]] += v[i]
print("A scatter", bins.tolist())

cnt = torch.zeros(3, dtype=torch.long)
for i in range(len(idx)):
    cnt[idx[i]] = cnt[idx[i]] + 1
print("B count", cnt.tolist())

bias = torch.tensor([0.5])
x = torch.randn(4)
y = torch.zeros(4)
for i in range(len(x)):
    y[i] = x[i] + bias
print("C bias", [round(u, 5) for u in y.tolist()])

f = torch.tensor([0.7, 1.6, -1.5, 2.2])
n = torch.zeros(4, dtype=torch.int32)
for i in range(len(f)):
    n[i] = f[i] * 3
print("D int out", n.tolist())

s = torch.arange(1.0, 6.0)
for i in range(1, len(s)):
    s[i] = s[i] + s[i - 1]
print("E prefix", s.tolist())

q = torch.arange(1.0, 6.0)
for i in range(len(q)):
    q[i] = q[i] * q[0]
print("F self ref", q.tolist())

m = torch.arange(6.0).reshape(2, 3)
r = torch.zeros(2, 3)
for i in range(2):
    r[i] = m[i] - m[i].mean()
print("G rows", r.tolist())
