# corpus: runnable
# `.item()` totals read inside the loop by a walrus condition, a `match` on the running value,
# an f-string with a format spec, and a `global` written by a helper the loop calls.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
data = [(torch.randn(4, 3), torch.randn(4, 1)) for _ in range(5)]

total = 0.0
marks = []
for x, y in data:
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    total += loss.item()
    if (avg := total / (len(marks) + 1)) > 1.0:
        marks.append(f"{avg:.3f}")
    else:
        marks.append("low")
print("walrus", marks, round(total, 4))

run = 0.0
kinds = []
for x, y in data:
    run += model(x).abs().mean().item()
    match run:
        case float() if run > 1.5:
            kinds.append("high")
        case float():
            kinds.append("float")
        case _:
            kinds.append(type(run).__name__)
print("match", kinds)

SEEN = 0.0


def record(v):
    global SEEN
    SEEN = max(SEEN, v)


agg = 0.0
for x, y in data:
    agg += model(x).sum().item()
    record(agg)
print("global", round(SEEN, 4), round(agg, 4))
