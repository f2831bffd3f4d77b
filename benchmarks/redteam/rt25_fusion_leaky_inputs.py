# corpus: runnable
# Red team 25, wave 1: hand-written leaky ReLU (`torch.where(h > 0, h, h * slope)`) on tensors
# whose dtype comes from ops an analysis may misread (argmax, floor division, `torch.div` with a
# rounding mode, top-k indices, a bool sum), and on half / bfloat16 / float64 activations
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(251)
model = nn.Linear(6, 4)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
log = []


def attempt(name, fn):
    try:
        value = fn()
        log.append((name, str(value.dtype), [round(v, 4) for v in value.double().flatten().tolist()]))
    except Exception as exc:
        log.append((name, type(exc).__name__))


for step in range(3):
    x = torch.randn(5, 6)
    logits = model(x)
    loss = logits.logsumexp(1).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        picked = logits.argmax(1) - 2
        attempt("argmax", lambda: torch.where(picked > 0, picked, picked * 0.5))
        halves = torch.arange(6) // 2 - 1
        attempt("floordiv", lambda: torch.where(halves > 0, halves, halves * 0.25))
        floored = torch.div(torch.arange(-4, 4), 3, rounding_mode="floor")
        attempt("div_floor", lambda: torch.where(floored > 0, floored, floored * 0.1))
        top = logits.topk(2, dim=1).indices - 1
        attempt("topk", lambda: torch.where(top > 0, top, top * 0.2))
        hits = (logits > 0).sum(1) - 2
        attempt("bool_sum", lambda: torch.where(hits > 0, hits, hits * 0.3))
        h16 = (logits * 3).half()
        attempt("half", lambda: torch.where(h16 > 0, h16, h16 * 0.2))
        hb = (logits * 3).bfloat16()
        attempt("bf16", lambda: torch.where(hb > 0, hb, hb * 0.01))
        h64 = (logits * 3).double()
        attempt("f64", lambda: torch.where(h64 > 0, h64, h64 * 0.1))
    log.append(round(loss.item(), 4))
print("leaky inputs", log)
