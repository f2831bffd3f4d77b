# corpus: runnable
# Red team 32b, wave 1 (blind): class-balance bookkeeping for a classifier. Per-class surpluses
# are clipped at zero with the integer idioms (`x * (x > 0)`, `torch.where(x > 0, x, 0)`,
# `torch.maximum(x, zeros_like(x))`) on tensors made from integer labels, but the operations
# that made them promote to floating point: a weighted `bincount`, a `clamp` with a float bound,
# `torch.cat` of counts with a float row, `float_power`, and a one-hot shifted by a half.
import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(6)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
C = 4
x = torch.randn(40, 5).to(device)
y = torch.randint(0, C, (40,)).to(device)
model = nn.Linear(5, C).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.3)
quota = torch.tensor([12, 8, 10, 10], device=device)
for epoch in range(3):
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        pred = logits.argmax(1)
        conf = logits.softmax(1).amax(1)
        soft_counts = torch.bincount(pred, weights=conf, minlength=C)
        deficit = quota - soft_counts
        short = deficit * (deficit > 0)
        capped = (torch.bincount(pred, minlength=C) - quota).clamp(max=2.5)
        over = torch.where(capped > 0, capped, 0)
        both = torch.cat([torch.bincount(y, minlength=C) - quota, conf[:C] - 1.0])
        excess = both * (both > 0)
        power = torch.float_power(torch.bincount(pred, minlength=C) - 10, 1)
        gap = torch.maximum(power, torch.zeros_like(power))
        shifted = F.one_hot(pred[:C], C) - 0.5
        hot = shifted * (shifted > 0)
    print(f"epoch {epoch} loss {loss.item():.6f}")
    print("  short", short.tolist(), "over", over.tolist())
    print("  excess", excess.tolist(), "gap", gap.tolist(), gap.dtype)
    print("  hot", hot.tolist())
