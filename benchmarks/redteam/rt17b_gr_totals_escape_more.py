# corpus: runnable
# More ways a running total of back-propagated losses leaves the loop with its graph: stored by
# setattr, `self.hist += [total]`, inside a dict appended every step, handed to a program method
# that keeps it, read later by a closure, returned in a tuple or a dict whose caller asks
# requires_grad, bound by the caller and printed as a tensor.
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(5)
batches = [(torch.randn(4, 3), torch.randn(4, 1)) for _ in range(3)]


class T:
    def __init__(self):
        self.model = nn.Linear(3, 1)
        self.opt = torch.optim.SGD(self.model.parameters(), lr=0.05)
        self.hist = []
        self.logs = []
        self.kept = []

    def step(self, x, y):
        loss = nn.functional.mse_loss(self.model(x), y)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss

    def keep(self, value):
        self.kept.append(value)

    def by_setattr(self, data):
        total = 0.0
        for x, y in data:
            total += self.step(x, y)
            setattr(self, "last", total)
        return self.last.requires_grad

    def by_augassign(self, data):
        total = 0.0
        for x, y in data:
            total += self.step(x, y)
            self.hist += [total]
        return [h.requires_grad for h in self.hist]

    def by_dict(self, data):
        total = 0.0
        for x, y in data:
            total += self.step(x, y)
            self.logs.append({"loss": total})
        return [d["loss"].requires_grad for d in self.logs]

    def by_method(self, data):
        total = 0.0
        for x, y in data:
            total += self.step(x, y)
            self.keep(total)
        return [k.requires_grad for k in self.kept]

    def by_closure(self, data):
        total = 0.0
        peek = lambda: total
        for x, y in data:
            total += self.step(x, y)
        return peek().requires_grad

    def in_tuple(self, data):
        total = 0.0
        for x, y in data:
            total += self.step(x, y)
        return total, len(data)

    def in_dict(self, data):
        total = 0.0
        for x, y in data:
            total += self.step(x, y)
        return {"loss": total}


t = T()
print("setattr", t.by_setattr(batches))
print("augassign", t.by_augassign(batches))
print("dict", t.by_dict(batches))
print("method", t.by_method(batches))
print("closure", t.by_closure(batches))
tot, n = t.in_tuple(batches)
print("tuple", tot.requires_grad, n)
print("dict-return", t.in_dict(batches)["loss"].requires_grad)
for epoch in range(2):
    res = t.in_tuple(batches)
    print("epoch", epoch, res[0].requires_grad, f"{res[0].item():.10f}")
