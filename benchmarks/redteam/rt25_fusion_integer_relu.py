# corpus: runnable
# Red team 25, wave 1: hand-written ReLU forms on integer and bool tensors (class counts,
# quantised activations, masks), where `torch.relu` keeps the integer dtype (or raises on bool)
# and the hand-written form promotes through a Python float zero or a float `zeros_like`
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(25)
model = nn.Linear(4, 3)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
target_count = torch.tensor([3, 3, 2])
log = []


def attempt(name, fn):
    try:
        value = fn()
        log.append((name, str(value.dtype), value.tolist()))
    except Exception as exc:  # the printed result names the failure
        log.append((name, type(exc).__name__))


for step in range(3):
    x = torch.randn(8, 4)
    y = torch.randint(0, 3, (8,))
    logits = model(x)
    loss = nn.functional.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    counts = torch.bincount(y, minlength=3)
    deficit = target_count - torch.tensor([1, 2, 3])
    # the shortfall per class, floored at zero: a float zero makes it a float tensor
    attempt("deficit", lambda: torch.where(deficit > 0, deficit, 0.0))
    shortfall = torch.tensor([2, -1, 0]) * (step + 1)
    attempt("shortfall", lambda: torch.where(shortfall > 0, shortfall, torch.zeros_like(shortfall, dtype=torch.float32)))
    q = torch.tensor([-3, 5, -7, 9], dtype=torch.int8)
    attempt("int8", lambda: torch.where(q > 0, q, 0.0) / 4)
    valid = torch.tensor([True, False, True])
    attempt("mask", lambda: valid * (valid > 0))
    attempt("mask_where", lambda: torch.where(valid > 0, valid, 0))
    log.append(round(loss.item(), 4))
print("integer relu", log)
