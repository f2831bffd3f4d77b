# corpus: runnable
# Red team 24: rewrite sites under `torch.autocast` (CPU bfloat16): module outputs change dtype
# inside the block, so a list of `.item()`s rebuilt with `torch.stack`, a running sum kept as a
# tensor, or a hoisted constant mixed with them compute in another precision
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(24)
device = "cuda" if torch.cuda.is_available() else "cpu"
dev_type = "cuda" if device == "cuda" else "cpu"
model = nn.Linear(8, 4).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
data = [torch.randn(16, 8, device=device) for _ in range(4)]
per_batch = []
total = 0.0
for xb in data:
    with torch.autocast(dev_type, dtype=torch.bfloat16):
        out = model(xb)
        loss = out.float().pow(2).mean()
        peak = out.max()
    opt.zero_grad()
    loss.backward()
    opt.step()
    per_batch.append(peak.item())
    total += peak.item()
stacked = torch.tensor(per_batch)
print("autocast", stacked.dtype, [round(v, 6) for v in stacked.tolist()], round(total, 6))

model.eval()
preds = []
with torch.autocast(dev_type, dtype=torch.bfloat16):
    for xb in data:
        logits = model(xb)
        preds.append(logits.mean().item())
        margin = logits - torch.tensor(0.1, device=device)
        preds.append(margin.dtype == torch.bfloat16)
print("eval autocast", preds)
