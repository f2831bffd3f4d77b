# corpus: runnable
# Host reads in modern loops: totals of `.detach().float().item()` of bfloat16 losses, a running
# count of `GradScaler`-skipped steps read from the scale, a total kept by a generator-based
# training loop (`yield` per step) that its consumer reads, and a total inside `torch.set_grad_enabled`.
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"

model = nn.Linear(8, 2).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
scaler = torch.amp.GradScaler("cpu", init_scale=2.0 ** 4, growth_interval=1, enabled=True)
data = [(torch.randn(4, 8), torch.randint(0, 2, (4,))) for _ in range(6)]

bf_total = 0.0
skipped = 0
for x, y in data:
    x, y = x.to(device), y.to(device)
    with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
        logits = model(x)
        loss = nn.functional.cross_entropy(logits, y)
        bf = logits.pow(2).mean()
    before = scaler.get_scale()
    opt.zero_grad()
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()
    skipped += int(scaler.get_scale() < before)
    bf_total += bf.detach().float().item()
print("bf_total", repr(bf_total), skipped, scaler.get_scale())


def train_steps(batches):
    total = 0.0
    for x, y in batches:
        loss = nn.functional.cross_entropy(model(x.to(device)), y.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
        yield total


print([round(t, 6) for t in train_steps(data)])

with torch.set_grad_enabled(False):
    seen = 0.0
    for x, y in data:
        seen += model(x.to(device)).logsumexp(-1).sum().item()
print("seen", repr(seen), torch.is_grad_enabled())
