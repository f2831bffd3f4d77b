# corpus: runnable
# Red team 25, wave 4 (probed with `paef fix` first): hand-written leaky ReLU on integer tensors
# that the dtype facts took for float ones - token ids padded with `F.pad` (it keeps the input's
# dtype), the indices of `out.max(1)[1]` and `torch.sort(...)[1]` (the second element of a
# (values, indices) pair): `F.leaky_relu` raises on integer tensors
import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(2529)
model = nn.Linear(4, 5)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
tokens = torch.tensor([3, 1, 4, 1])
log = []


def attempt(name, fn):
    try:
        value = fn()
        log.append((name, str(value.dtype), [round(v, 4) for v in value.double().flatten().tolist()]))
    except Exception as exc:
        log.append((name, type(exc).__name__))


for step in range(3):
    x = torch.randn(3, 4)
    out = model(x)
    loss = out.logsumexp(1).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        ids = F.pad(tokens, (0, 2), value=-1)
        attempt("pad", lambda: torch.where(ids > 0, ids, ids * 0.5))
        pred = out.max(1)[1] - 2
        attempt("max_indices", lambda: torch.where(pred > 0, pred, pred * 0.1))
        rank = torch.sort(out, dim=1)[1] - 2
        attempt("sort_indices", lambda: torch.where(rank > 0, rank, rank * 0.1))
        best = out.max(1)[0]
        attempt("max_values", lambda: torch.where(best > 0, best, best * 0.1))
    log.append(round(loss.item(), 4))
print("integer results", log)
