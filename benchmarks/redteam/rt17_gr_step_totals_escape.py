# corpus: runnable
# Running totals of a step method's back-propagated loss whose graph (or its tensor-ness) is
# still wanted: stored on the object and back-propagated by another method (the step keeps the
# graph with retain_graph=True), returned to a caller that prints it as a tensor or asks
# requires_grad / grad_fn, appended to a history, kept through nonlocal in a closure, in a
# mutable default, or a micro-batch sum back-propagated once after the loop.
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(2)
batches = [(torch.randn(4, 3), torch.randn(4, 1)) for _ in range(4)]


def show(tag, module):
    print(tag, [f"{v:.10f}" for v in torch.cat([p.detach().flatten() for p in module.parameters()]).tolist()])


class Trainer:
    def __init__(self):
        self.model = nn.Linear(3, 1)
        self.opt = torch.optim.SGD(self.model.parameters(), lr=0.05)
        self.epoch_total = None

    def training_step(self, x, y):
        loss = nn.functional.mse_loss(self.model(x), y)
        loss.backward(retain_graph=True)
        return loss

    def train_epoch(self, data):
        total = torch.zeros(())
        for x, y in data:
            self.opt.zero_grad()
            loss = self.training_step(x, y)
            total = total + loss
        self.epoch_total = total

    def regularise(self):
        self.opt.zero_grad()
        (0.01 * self.epoch_total).backward()
        self.opt.step()


tr = Trainer()
tr.train_epoch(batches)
tr.regularise()
show("stored-then-backwarded", tr.model)


class Returner:
    def __init__(self):
        self.model = nn.Linear(3, 1)
        self.opt = torch.optim.SGD(self.model.parameters(), lr=0.05)

    def training_step(self, x, y):
        loss = nn.functional.mse_loss(self.model(x), y)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss

    def train(self, data):
        tr_loss = torch.zeros(())
        for x, y in data:
            tr_loss += self.training_step(x, y)
        return tr_loss


ret = Returner().train(batches)
print("returned", ret.requires_grad, type(ret.grad_fn).__name__)
print("returned-value", f"{ret.item():.10f}")


class History:
    def __init__(self):
        self.model = nn.Linear(3, 1)
        self.opt = torch.optim.SGD(self.model.parameters(), lr=0.05)
        self.history = []

    def step(self, x, y):
        loss = nn.functional.l1_loss(self.model(x), y)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss

    def fit(self, data):
        running = 0.0
        for x, y in data:
            out = self.step(x, y)
            running = running + out
            self.history.append(running)
        print("history", [h.requires_grad for h in self.history], f"{running.item():.10f}")


History().fit(batches)


# a closure keeps the total through nonlocal; the caller back-propagates it (retain_graph in the step)
cl_model = nn.Linear(3, 1)
cl_opt = torch.optim.SGD(cl_model.parameters(), lr=0.05)


def cl_step(x, y):
    loss = nn.functional.mse_loss(cl_model(x), y)
    loss.backward(retain_graph=True)
    return loss


def run(data):
    total = 0.0

    def one(x, y):
        nonlocal total
        total = total + cl_step(x, y)

    for x, y in data:
        one(x, y)
    return total


cl_opt.zero_grad()
t = run(batches)
t.backward()
cl_opt.step()
show("nonlocal", cl_model)


# micro-batches: the summed loss is back-propagated once after the loop
mb_model = nn.Linear(3, 1)
mb_opt = torch.optim.SGD(mb_model.parameters(), lr=0.05)


class Micro:
    def loss_of(self, x, y):
        return nn.functional.mse_loss(mb_model(x), y)

    def accumulate(self, data):
        summed = torch.zeros(())
        for x, y in data:
            part = self.loss_of(x, y)
            summed = summed + part / len(data)
        mb_opt.zero_grad()
        summed.backward()
        mb_opt.step()
        return summed.item()


print("micro", f"{Micro().accumulate(batches):.10f}")
show("micro", mb_model)


# a step loss bound, then summed and printed as a tensor after the loop
pr_model = nn.Linear(3, 1)
pr_opt = torch.optim.SGD(pr_model.parameters(), lr=0.05)


def pr_step(x, y):
    loss = nn.functional.mse_loss(pr_model(x), y)
    pr_opt.zero_grad()
    loss.backward()
    pr_opt.step()
    return loss


acc = torch.zeros(())
for x, y in batches:
    l = pr_step(x, y)
    acc += l
print("printed", acc.requires_grad)
