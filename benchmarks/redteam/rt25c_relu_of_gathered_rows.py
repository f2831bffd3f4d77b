# corpus: runnable
# Red team 25, wave 3 (probed with `paef fix` first): hand-written ReLU of float rows gathered by
# an integer index (`feats[idx]`): the index made the formula look like integer work, so the
# float edges (NaN -> 0 with `torch.where`, -0.0 with the product) were not left to review
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(2528)
table = nn.Embedding(6, 3)
opt = torch.optim.SGD(table.parameters(), lr=0.1)
log = []
for step in range(3):
    idx = torch.randint(0, 6, (3,))
    rows = table(idx)
    loss = rows.pow(2).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        feats = torch.log(table.weight + 0.5)
        gated = torch.where(feats[idx] > 0, feats[idx], 0)
        kept = feats[idx] * (feats[idx] > 0)
    log.append((gated.nan_to_num(-9.0).tolist(), kept.nan_to_num(-9.0).tolist(), str(kept.flatten()[0].item())))
print("gathered relu", [[[round(v, 4) for v in r] for r in part] if isinstance(part, list) else part for entry in log for part in entry])
