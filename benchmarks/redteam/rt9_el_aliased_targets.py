# corpus: runnable
# Element loops whose target shares memory with the source under another name: a tensor taken
# out of a container holding it twice, a `view` of it, `torch.as_strided` over the same storage,
# `x.data`, and a loop reading a reduction of the tensor it writes.
import torch

torch.manual_seed(0)
torch.set_num_threads(1)

v = torch.arange(6.0)
buffers = {"src": v, "dst": v}
out = buffers["dst"]
src = buffers["src"]
for i in range(1, len(src)):
    out[i] = src[i - 1] * 0.5 + src[i]
print("container", v)

a = torch.arange(8.0)
flat = a.view(2, 4).view(-1)
for i in range(1, a.size(0)):
    flat[i] = a[i] + a[i - 1]
print("view", a)

b = torch.arange(5.0)
shifted = torch.as_strided(b, (4,), (1,), 1)
for i in range(4):
    shifted[i] = b[i] * 2
print("strided", b)

c = torch.arange(4.0, requires_grad=True)
plain = c.data
for i in range(1, 4):
    plain[i] = c.data[i - 1] + 1
print("data", c.detach())

d = torch.linspace(-1, 1, 6)
for i in range(len(d)):
    d[i] = d[i] - d.mean()
print("centred", d)
