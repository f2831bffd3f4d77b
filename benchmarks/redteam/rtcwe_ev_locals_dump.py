# corpus: runnable
# Probe cwe (session 54): the evaluation function ends by dumping its locals for debugging
# (`print(sorted(locals().items()))`): the last batch's logits are among them.
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
torch.set_num_threads(1)


def evaluate(model, batches):
    model.eval()
    hits = 0
    for xb, yb in batches:
        logits = model(xb)
        hits += int((logits.argmax(1) == yb).sum())
    debug = {k: v for k, v in locals().items() if k in ("hits", "logits")}
    print("debug", debug)
    return hits


model = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 3))
opt = torch.optim.Adam(model.parameters(), lr=0.05)
data = [(torch.randn(8, 4), torch.randint(0, 3, (8,))) for _ in range(4)]
for xb, yb in data:
    loss = F.cross_entropy(model(xb), yb)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("hits", evaluate(model, data[:2]))
