# corpus: runnable
# Red team 59 probe (NOT blind): evaluation-looking loops (model.eval(), no optimizer step in sight) whose forward
# output is handed to code that back-propagates out of the loop's sight: a closure made by a factory and called by
# a line search that does not turn grad on, a metric looked up by name in a dict of partials, a lambda in a
# callback list, and a `map` over a partial-bound adaptation step.
import functools

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5951)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

N, D, C = 240, 8, 3
protos = torch.randn(C, D)
y = torch.randint(0, C, (N,))
x = (protos[y] + torch.randn(N, D)).to(device)
y = y.to(device)
model = nn.Sequential(nn.Linear(D, 16), nn.Tanh(), nn.Linear(16, C)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for i in range(60):
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()

log_t = torch.zeros(1, device=device, requires_grad=True)


def line_search(objective, param, lr=0.1):
    value = objective()
    g, = torch.autograd.grad(value, param)
    with torch.no_grad():
        param -= lr * g
    return value.detach()


def nll_of(logits, labels):
    return lambda: F.cross_entropy(logits / log_t.exp(), labels)


# 1: a closure made by a factory, handed to a line search
model.eval()
vals1 = []
for i in range(0, N, 60):
    logits = model(x[i:i + 60])
    vals1.append(line_search(nll_of(logits, y[i:i + 60]), log_t))


# 2: a metric looked up by name in a dict of partials
def input_sensitivity(scale, out, xb):
    g, = torch.autograd.grad(out.logsumexp(1).sum(), model[0].weight)
    return scale * g.norm()


METRICS = {"acc": lambda out, xb: (out.argmax(1) == y[:len(out)]).float().mean(),
           "sens": functools.partial(input_sensitivity, 0.5)}
vals2 = []
for i in range(0, N, 60):
    out = model(x[i:i + 60])
    vals2.append(METRICS["sens"](out, x[i:i + 60]))

# 3: a lambda in a callback list back-propagates the batch's loss into a separate bias
bias = torch.zeros(C, device=device, requires_grad=True)
callbacks = [lambda loss: loss.backward()]
vals3 = []
for i in range(0, N, 60):
    out = model(x[i:i + 60]).detach() + bias
    loss = F.cross_entropy(out, y[i:i + 60])
    for cb in callbacks:
        cb(loss)
    vals3.append(bias.grad.clone())

# 4: map over a partial-bound adaptation step
adapt_opt = torch.optim.SGD([model[2].bias], lr=0.05)


def adapt(optimizer, xb):
    probs = F.softmax(model(xb), 1)
    ent = -(probs * probs.clamp_min(1e-8).log()).sum(1).mean()
    optimizer.zero_grad()
    ent.backward()
    optimizer.step()
    return ent.item()


step = functools.partial(adapt, adapt_opt)
vals4 = []
for i in range(0, N, 60):
    vals4.extend(map(step, [x[i:i + 30], x[i + 30:i + 60]]))

print("1", round(log_t.item(), 5), [round(v.item(), 4) for v in vals1])
print("2", [round(v.item(), 4) for v in vals2])
print("3", [round(v.abs().sum().item(), 4) for v in vals3])
print("4", [round(v, 4) for v in vals4])
