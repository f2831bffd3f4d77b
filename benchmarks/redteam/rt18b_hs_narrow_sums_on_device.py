# corpus: runnable
# Device training loops with `.item()` totals of narrow tensors: an int16 element, an int32
# element near 2**30, float16 and bfloat16 values, an int16 element divided by 7, a product
# of uint8 pixels, a pair of uint8 pixels added before the total.
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
imgs = [torch.randint(100, 256, (3, 8, 8), dtype=torch.uint8) for _ in range(6)]
codes = [torch.randint(0, 30000, (64,), dtype=torch.int16) for _ in range(6)]
big = [torch.full((4,), 2**30, dtype=torch.int32) for _ in range(6)]
xs = [torch.randn(8, 4) for _ in range(6)]

t2 = 0
t3 = 0
h = 0.0
bt = 0.0
d = 0
q = 1
s = 0
for k in range(6):
    x = xs[k].to(device)
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    c = codes[k].to(device)
    b = big[k].to(device)
    im = imgs[k].to(device)
    t2 += c[0].item()
    t3 += b[1].item()
    h += (x.half() + 100).mean().item()
    bt += (x.bfloat16() + 3)[0, 0].item()
    d += c[0].item() / 7
    q *= im[0, 0, 0].item()
    s += im[0, 0, 0].item() + im[0, 0, 1].item()
print("B int16", repr(t2))
print("C int32", repr(t3))
print("D half", repr(h))
print("E bf16", repr(bt))
print("F div", repr(d))
print("G prod", repr(q))
print("H pair", repr(s))
