# corpus: runnable
# Test-time training inside loops that look like evaluation: the backward pass is spelled
# `torch.autograd.backward`, a bound `loss.backward` taken before it is called, `getattr`,
# `type(loss).backward`, and an optimizer step with a closure.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
xs = torch.randn(4, 3, 4)


def fresh():
    torch.manual_seed(1)
    m = nn.Linear(4, 2)
    return m, torch.optim.SGD(m.parameters(), lr=0.1)


model, opt = fresh()
model.eval()
res = []
for x in xs:
    out = model(x)
    ent = out.softmax(-1).mul(out.log_softmax(-1)).sum()
    opt.zero_grad()
    torch.autograd.backward([ent])
    opt.step()
    res.append(round(ent.item(), 4))
print("autograd.backward", res)

model, opt = fresh()
model.eval()
res = []
for x in xs:
    out = model(x)
    go = out.pow(2).mean().backward
    opt.zero_grad()
    go()
    opt.step()
    res.append(round(model.weight.sum().item(), 4))
print("bound", res)

model, opt = fresh()
model.eval()
res = []
for x in xs:
    out = model(x)
    l = out.abs().mean()
    opt.zero_grad()
    getattr(l, "back" + "ward")()
    opt.step()
    res.append(round(model.bias.sum().item(), 4))
print("getattr", res)

model, opt = fresh()
model.eval()
res = []
for x in xs:
    out = model(x)
    l = out.pow(2).sum()
    opt.zero_grad()
    type(l).backward(l)
    opt.step()
    res.append(round(model.weight.abs().sum().item(), 4))
print("type", res)

model, opt = fresh()
model.eval()
res = []
for x in xs:
    def closure():
        opt.zero_grad()
        l = model(x).pow(2).mean()
        l.backward()
        return l
    opt.step(closure)
    res.append(round(model.weight.sum().item(), 4))
print("closure", res)
