# corpus: runnable
# Running loss totals (`total += loss`) handed to framework-like code: a `manual_backward(total)`
# method, an `accelerator.backward`-like function, an LBFGS closure returning the summed loss,
# a `training_step` returning `{"loss": total}` to a trainer that back-propagates it, and a
# display-only total next to per-micro-batch backward passes.
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"

model = nn.Linear(5, 1).to(device)
chunks = [(torch.randn(6, 5), torch.randn(6, 1)) for _ in range(4)]
crit = nn.MSELoss()


class Module:
    def __init__(self, net):
        self.net = net
        self.opt = torch.optim.SGD(net.parameters(), lr=0.05)

    def manual_backward(self, loss, *args, **kwargs):
        loss.backward(*args, **kwargs)

    def training_step(self, batches):
        total = 0
        for x, y in batches:
            total += crit(self.net(x.to(device)), y.to(device))
        return {"loss": total, "n": len(batches)}

    def fit_manual(self, batches):
        total = 0
        for x, y in batches:
            total += crit(self.net(x.to(device)), y.to(device))
        self.opt.zero_grad()
        self.manual_backward(total)
        self.opt.step()
        return total.item()


def backward(loss):
    loss.backward()


mod = Module(model)
print("manual", round(mod.fit_manual(chunks), 6), model.weight.grad.norm().item() > 0)

for epoch in range(2):
    out = mod.training_step(chunks)
    mod.opt.zero_grad()
    (out["loss"] / out["n"]).backward()
    mod.opt.step()
    print("trainer", epoch, round(out["loss"].item(), 6))

acc = 0
for x, y in chunks:
    acc += crit(model(x.to(device)), y.to(device))
mod.opt.zero_grad()
backward(acc)
mod.opt.step()
print("accelerate", round(acc.item(), 6))

lbfgs = torch.optim.LBFGS(model.parameters(), lr=0.5, max_iter=4)


def closure():
    lbfgs.zero_grad()
    tot = 0
    for x, y in chunks:
        l = crit(model(x.to(device)), y.to(device))
        l.backward()
        tot += l
    return tot


for _ in range(2):
    final = lbfgs.step(closure)
    print("lbfgs", round(float(final), 6))

shown = 0
for x, y in chunks:
    l = crit(model(x.to(device)), y.to(device)) / len(chunks)
    l.backward()
    shown += l
print("shown", round(shown.item(), 6))
