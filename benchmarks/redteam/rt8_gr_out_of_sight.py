# corpus: runnable
# Summed losses whose graph is needed later by code the loop does not show: a hook object that
# back-propagates the epoch's total, a closure kept for an LBFGS-like re-evaluation, a total
# stored in a dict handed to a "trainer" helper, and a plain logging sum (near-miss).
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
batches = [(torch.randn(6, 4), torch.randn(6, 1)) for _ in range(3)]


class EpochEnd:
    def __init__(self):
        self.pending = []

    def __call__(self, total):
        opt.zero_grad()
        total.backward()
        opt.step()


hook = EpochEnd()
total = 0
for x, y in batches:
    total += nn.functional.mse_loss(model(x.to(device)), y.to(device))
hook(total)
print("after hook", round(model.weight.sum().item(), 5))

state = {"loss": 0}
for x, y in batches:
    state["loss"] = state["loss"] + nn.functional.mse_loss(model(x.to(device)), y.to(device))


def apply(st):
    opt.zero_grad()
    st["loss"].backward()
    opt.step()


apply(state)
print("after state", round(model.weight.sum().item(), 5))

acc = 0
for x, y in batches:
    acc += nn.functional.mse_loss(model(x.to(device)), y.to(device))
finish = lambda: acc.backward()
finish()
print("grad", round(model.weight.grad.sum().item(), 5))

logged = 0
for x, y in batches:
    logged += nn.functional.mse_loss(model(x.to(device)), y.to(device))
print("logged", round(float(logged), 5))
