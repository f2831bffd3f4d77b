# corpus: runnable
# `.item()` sums in loops shaped unusually: `continue` before the sum, `while` with the sum in the
# test, a sum inside `with` blocks that read it on exit, `try/finally` inside the loop reading the
# sum, a sum under a nested function with `nonlocal`, a sum deleted and recreated per epoch.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = nn.Linear(3, 1).to(device)
batches = [(torch.randn(5, 3), torch.randn(5, 1)) for _ in range(6)]

tot = 0.0
for i, (xb, yb) in enumerate(batches):
    if i % 2:
        continue
    tot += nn.functional.mse_loss(model(xb.to(device)), yb.to(device)).item()
print("continue", round(tot, 6))

budget = 0.0
k = 0
while budget < 2.0 and k < len(batches):
    xb, yb = batches[k]
    budget += nn.functional.mse_loss(model(xb.to(device)), yb.to(device)).item()
    k += 1
print("while", k, round(budget, 6))


class Announce:
    def __init__(self, read):
        self.read = read

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        print("exit", type(self.read()).__name__)
        return False


acc = 0.0
for xb, yb in batches[:2]:
    with Announce(lambda: acc):
        acc += nn.functional.mse_loss(model(xb.to(device)), yb.to(device)).item()
print("with", round(acc, 6))

run = 0.0
for xb, yb in batches[:3]:
    try:
        run += nn.functional.l1_loss(model(xb.to(device)), yb.to(device)).item()
    finally:
        print("finally", type(run).__name__)
print("try", round(run, 6))


def epoch():
    seen = 0.0

    def step(xb, yb):
        nonlocal seen
        seen += nn.functional.mse_loss(model(xb.to(device)), yb.to(device)).item()

    for xb, yb in batches:
        step(xb, yb)
    return seen


print("nonlocal", round(epoch(), 6))

for ep in range(2):
    ep_loss = 0.0
    for xb, yb in batches:
        ep_loss += nn.functional.mse_loss(model(xb.to(device)), yb.to(device)).item()
    print("epoch", ep, round(ep_loss, 6))
    del ep_loss
