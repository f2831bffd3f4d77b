# corpus: runnable
# ReLU spelled as selections on tensors that look integer but are not (float `arange`,
# `randint(dtype=float32)` with an infinity written in, integers divided into floats, a half),
# and `.item()` lists / round trips of uint8, bool, half, int32 and complex values.
import torch, numpy as np
torch.set_num_threads(1)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
a = torch.arange(-3.0, 3.0)
r1 = a * (a > 0)
b = torch.arange(-3, 3, 0.5)
r2 = torch.where(b > 0, b, 0)
c = torch.randint(-3, 5, (4,), dtype=torch.float32)
c[0] = float("-inf")
r3 = c * (c > 0)
d = torch.full((3,), -1)
d = d.float() / 0
r4 = torch.maximum(d, torch.zeros_like(d))
e = torch.tensor([-1, 2, 3])
e = e.div(0)
r5 = e * (e > 0)
f = torch.randint(-3, 5, (4,))
f = f / 0
r6 = torch.where(f > 0, f, 0)
h = torch.randint(-3, 5, (4,)).to(torch.float16)
h[1] = float("-inf")
r7 = h * (h > 0)
print([r.tolist() for r in (r1, r2, r3, r4, r5, r6, r7)])

vals = []
xs = torch.tensor([250, 3, 7], dtype=torch.uint8).to(device)
for i in range(3):
    vals.append(xs[i].item())
t = torch.tensor(vals)
print("L uint8", t - 251, t.dtype)

bools = [torch.tensor(True).to(device), torch.tensor(False).to(device)]
bl = []
for bb in bools:
    bl.append(bb.item())
tb = torch.tensor(bl)
print("M bool", tb, tb.dtype, (~tb).tolist())

h16 = [torch.tensor(65504.0, dtype=torch.float16).to(device)] * 2
hl = []
for v in h16:
    hl.append(v.item())
th = torch.tensor(hl)
print("N half", th * 2, th.dtype)

i32 = torch.tensor([2**31 - 1], dtype=torch.int32).to(device)
p = torch.tensor(i32.tolist())
print("O int32 ping", (p + 1).tolist(), p.dtype)
z = torch.tensor([1 + 2j], dtype=torch.complex64).to(device)
q = torch.tensor(z.cpu().numpy())
print("P complex", q, q.dtype)
