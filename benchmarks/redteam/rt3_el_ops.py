# corpus: runnable
# Element loops whose vectorized form differs: an op with a `dim` argument, indexing into the row,
# the loop index used in the value, a scale changed in the loop, a Python builtin on the element,
# a helper that branches on the element.
import math

import torch

torch.manual_seed(0)
t = torch.randn(4, 3)

out = torch.empty(4, 3)
for i in range(t.shape[0]):
    out[i] = torch.softmax(t[i], dim=0)
print(out)

out = torch.empty(4, 3)
for i in range(t.shape[0]):
    out[i] = torch.cumsum(t[i], 0)
print(out)

out = torch.empty(4)
for i in range(t.shape[0]):
    out[i] = t[i][0] * 2
print(out)

out = torch.empty(4, 3)
for i in range(t.shape[0]):
    out[i] = t[i] * i
print(out)

scale = 1.0
out = torch.empty(4, 3)
for i in range(t.shape[0]):
    out[i] = t[i] * scale
    scale = scale * 0.5
print(out)

v = torch.randn(6)
out = torch.empty(6)
for i in range(len(v)):
    out[i] = max(v[i], 0)
print(out)

out = torch.empty(6)
for i in range(len(v)):
    out[i] = math.exp(v[i])
print(out)


def clip(e):
    if e > 0.5:
        return e * 0 + 0.5
    return e


out = torch.empty(6)
for i in range(len(v)):
    out[i] = clip(v[i])
print(out)

out = torch.empty(4, 3)
for i in range(t.shape[0]):
    out[i] = t[i].flip(0)
print(out)

out = torch.empty(4, 3)
for i in range(t.shape[0]):
    out[i] = torch.nn.functional.normalize(t[i], dim=0)
print(out)

out = torch.empty(4)
for i in range(t.shape[0]):
    out[i] = t[i].norm()
print(out)

out = torch.empty(4, 3)
for i in range(t.shape[0]):
    out[i] = t[i] - t[i].mean()
print(out)

out = torch.empty(4, 3)
for i in range(t.shape[0]):
    out[i] = t[i] / t[i].max()
print(out)

w = torch.randn(3)
out = torch.empty(4)
for i in range(t.shape[0]):
    out[i] = torch.dot(t[i], w)
print(out)

idx = torch.empty(4)
for i in range(t.shape[0]):
    idx[i] = t[i].argmax()
print(idx)
