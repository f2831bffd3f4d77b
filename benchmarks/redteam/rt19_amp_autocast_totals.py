# corpus: runnable
# Mixed-precision training on the CPU (`torch.autocast(device_type="cpu", dtype=torch.bfloat16)`):
# running totals of `.item()` values computed inside the autocast region (a bfloat16 loss read as a
# Python float, a count of bfloat16 predictions), a GradScaler's scale read per step, a loss read
# back into a tensor with `torch.tensor(loss.item())`, per-step losses collected as Python floats
# and turned into a tensor after the loop.
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
amp_device = "cuda" if device == "cuda" else "cpu"

model = nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.Linear(32, 1)).to(device)
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
scaler = torch.amp.GradScaler(amp_device, enabled=(device == "cuda"))
batches = [(torch.randn(32, 16), torch.randn(32, 1)) for _ in range(12)]

running = 0.0
hits = 0
scales = 0.0
kept = []
losses = []
for step, (x, y) in enumerate(batches):
    x, y = x.to(device), y.to(device)
    with torch.autocast(device_type=amp_device, dtype=torch.bfloat16):
        pred = model(x)
        loss = (pred - y).abs().mean()
        running += loss.item()
        hits += (pred > 0).sum().item()
    opt.zero_grad(set_to_none=True)
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()
    scales += scaler.get_scale()
    kept.append(torch.tensor(loss.item()))
    losses.append(loss.item())

print("running", repr(running), type(running).__name__)
print("hits", hits, type(hits).__name__)
print("scales", scales)
k = torch.stack(kept)
print("kept", k.dtype, k.sum().item())
t = torch.tensor(losses)
print("losses", t.dtype, t.mean().item(), t.std().item())

# evaluation under autocast, totals read after
model.eval()
val_total = 0.0
val_n = 0
for x, y in batches[:4]:
    x, y = x.to(device), y.to(device)
    with torch.no_grad(), torch.autocast(device_type=amp_device, dtype=torch.bfloat16):
        out = model(x)
        val_total += (out - y).pow(2).sum().item()
        val_n += y.numel()
print("val", val_total / val_n)
