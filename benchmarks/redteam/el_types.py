# corpus: runnable
import numpy as np
import torch
torch.manual_seed(0)
t = torch.randn(4)
out = [0.0] * 4
for i in range(len(t)):
    out[i] = t[i] * 2 + 1
print(out)
vals = [1.0, 2.0, 3.0, 4.0]
res = torch.zeros(4)
for i in range(len(vals)):
    res[i] = vals[i] * 2 + 1
print(res)
arr = np.zeros(4, dtype=np.float32)
for i in range(len(t)):
    arr[i] = t[i] * 2 + 1
print(arr)
a = np.arange(4)
b = np.zeros(4)
for i in range(len(a)):
    b[i] = a[i] / 3
print(b)
