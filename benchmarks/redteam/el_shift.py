# corpus: runnable
import torch
torch.manual_seed(0)
buf = torch.arange(6, dtype=torch.float32)
out = buf[1:]
src = buf[:-1]
for i in range(len(src)):
    out[i] = src[i] * 0.5
print(buf)
x = torch.randn(4, 4)
xt = x.t()
res = x
for i in range(x.shape[0]):
    res[i] = xt[i] * 2
print(x)
