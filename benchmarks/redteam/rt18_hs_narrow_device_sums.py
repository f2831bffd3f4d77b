# corpus: runnable
# `.item()` totals of narrow tensors: uint8 image maxima, int32 and int16 sums, float16 and
# bfloat16 means, an integer sum divided by an int, a product of counts; kept on the device they
# would add in the tensor's dtype (wrap, round) where the Python total did not.
import torch

torch.set_num_threads(1)
torch.manual_seed(0)
imgs = [torch.randint(100, 256, (3, 8, 8), dtype=torch.uint8) for _ in range(6)]
codes = [torch.randint(0, 30000, (64,), dtype=torch.int16) for _ in range(6)]
big = [torch.full((4,), 2**30, dtype=torch.int32) for _ in range(3)]
halfs = [torch.randn(32).half() + 100 for _ in range(6)]
bfs = [torch.randn(32).bfloat16() + 3 for _ in range(6)]

t = 0
for im in imgs:
    t += im.max().item()
print("A uint8 max", repr(t))

t2 = 0
for c in codes:
    t2 += c[0].item()
print("B int16 elem", repr(t2))

t3 = 0
for b in big:
    t3 += b[1].item()
print("C int32 elem", repr(t3))

h = 0.0
for x in halfs:
    h += x.mean().item()
print("D half mean", repr(h))

bt = 0.0
for x in bfs:
    bt += x[0].item()
print("E bf16 elem", repr(bt))

d = 0
for c in codes:
    d += c[0].item() / 7
print("F int div", repr(d))

q = 1
for im in imgs:
    q *= im[0, 0, 0].item()
print("G product", repr(q))

s = 0
for im in imgs:
    s += im[0, 0, 0].item() + im[0, 0, 1].item()
print("H pair", repr(s))
