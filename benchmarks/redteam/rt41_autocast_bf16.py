# corpus: runnable
"""MLP trained under CPU autocast bfloat16; hand-written activations and logged maxima of bf16 outputs."""
import torch
import torch.nn as nn

torch.manual_seed(0)
device = 'cuda' if torch.cuda.is_available() else 'cpu'
amp_dtype = torch.bfloat16


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.fc1 = nn.Linear(d, 2 * d)
        self.fc2 = nn.Linear(2 * d, d)

    def forward(self, x):
        h = self.fc1(x)
        h = torch.where(h > 0, h, 0.02 * h)
        g = self.fc2(h)
        g = torch.maximum(g, torch.zeros_like(g))
        return g


model = Block(8).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = torch.randn(40, 8)
target = torch.randn(40, 8)
peaks = []
mins = []
total = 0.0
count = 0
for step in range(5):
    x = data[step * 8:(step + 1) * 8].to(device)
    y = target[step * 8:(step + 1) * 8].to(device)
    with torch.autocast(device_type=device, dtype=amp_dtype):
        out = model(x)
        act = out * (out > 0)
        loss = ((out.float() - y) ** 2).mean()
        peaks.append(out.max().item())
        mins.append(act.min().item())
    opt.zero_grad()
    loss.backward()
    opt.step()
    total += loss.item() * x.size(0)
    count += (out > 0).sum().item()
    print(step, out.dtype, act.dtype, "loss %.12f" % loss.item(), "neg zeros", int(torch.signbit(act).sum()))
peak_t = torch.tensor(peaks)
min_t = torch.tensor(mins)
print("peaks", peak_t.dtype, [f"{p:.10f}" for p in peak_t.tolist()])
print("mins", min_t.dtype, min_t.tolist(), "1/min", (1.0 / min_t).tolist())
print("total %.12f" % total, "count", count, type(count).__name__)
