# corpus: runnable
# Wave 2, after the first contact's one harmful rewrite (a `training_step` method summing its
# losses, back-propagated by the caller through `out["loss"]`): summing methods of plain classes
# whose results reach `backward()` through `self.step(b)`, a bound method kept in a name, an
# instance's `__call__`, a wrapper function returning a dict, an attribute holder, and
# `torch.autograd.backward`; next to them, the same methods whose results are only read as numbers.
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
net = nn.Linear(5, 1).to(device)
opt = torch.optim.SGD(net.parameters(), lr=0.05)
crit = nn.MSELoss()
chunks = [(torch.randn(6, 5), torch.randn(6, 1)) for _ in range(3)]


class Trainer:
    def step(self, batches):
        total = 0
        for x, y in batches:
            total += crit(net(x.to(device)), y.to(device))
        return total

    def fit(self, batches):
        opt.zero_grad()
        self.step(batches).backward()
        opt.step()
        return net.weight.grad.norm().item()


class Closure:
    def total(self, batches):
        acc = 0
        for x, y in batches:
            acc = acc + crit(net(x.to(device)), y.to(device))
        return acc

    def __call__(self, batches):
        return self.total(batches) / len(batches)


class Shared:
    def shared_step(self, batches):
        acc = 0
        for x, y in batches:
            acc += crit(net(x.to(device)), y.to(device))
        return acc

    def validation_step(self, batches):
        acc = 0
        for x, y in batches:
            acc += crit(net(x.to(device)), y.to(device))
        return {"val_loss": acc}


def run(batches):
    return {"loss": Shared().shared_step(batches)}


class Holder:
    pass


print("fit", round(Trainer().fit(chunks), 6))
opt.zero_grad()
Closure()(chunks).backward()
opt.step()
print("closure", net.weight.data.sum().item())
opt.zero_grad()
run(chunks)["loss"].backward()
opt.step()
h = Holder()
h.last = Shared().shared_step(chunks)
opt.zero_grad()
torch.autograd.backward(h.last)
opt.step()
print("holder", round(h.last.item(), 6), net.weight.data.sum().item())
v = Shared().validation_step(chunks)
print("val", round(v["val_loss"].item(), 6), v["val_loss"].requires_grad)
