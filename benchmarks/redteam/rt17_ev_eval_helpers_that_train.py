# corpus: runnable
# Helpers named like evaluation (they call `.eval()` and then run the model) that make the
# calling loop look like an evaluation loop, while a gradient is still needed in that loop:
# the helper trains again after its eval, backward is reached through a callback, a closure or
# another object, the loop asks `torch.autograd.grad` of the helper's output (an adversarial
# step), outputs collected in the loop are back-propagated after it, or the helper reads the
# grad mode. A `with torch.no_grad():` around any of these loops changes what it computes.
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(0)
xs = [torch.randn(4, 3) for _ in range(3)]
ys = [torch.randn(4, 1) for _ in range(3)]


def show(tag, module):
    print(tag, [f"{v:.10f}" for v in torch.cat([p.detach().flatten() for p in module.parameters()]).tolist()])


class Engine:
    """`eval` scores the batch, then fine-tunes on it (eval, forward, train, backward, step)."""

    def __init__(self):
        self.model = nn.Linear(3, 1)
        self.opt = torch.optim.SGD(self.model.parameters(), lr=0.1)

    def eval(self, x, y):
        self.model.eval()
        out = self.model(x)
        self.model.train()
        loss = (out - y).pow(2).mean()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()


engine = Engine()
scores = []
for x, y in zip(xs, ys):
    scores.append(engine.eval(x, y))
print("engine", [f"{s:.10f}" for s in scores])
show("engine", engine.model)

# backward reached through a callback handed to the helper
cb_model = nn.Linear(3, 1)
cb_opt = torch.optim.SGD(cb_model.parameters(), lr=0.1)


def score(x, on_output):
    cb_model.eval()
    out = cb_model(x)
    on_output(out)
    return out.detach().sum().item()


def fit_output(out):
    cb_opt.zero_grad()
    out.pow(2).mean().backward()
    cb_opt.step()


totals = []
for x in xs:
    totals.append(score(x, fit_output))
print("callback", [f"{s:.10f}" for s in totals])
show("callback", cb_model)

# backward reached through a closure made by a factory
cl_model = nn.Linear(3, 1)


def make_stepper(model, lr):
    opt = torch.optim.SGD(model.parameters(), lr=lr)

    def stepper(out):
        opt.zero_grad()
        out.abs().mean().backward()
        opt.step()

    return stepper


step_fn = make_stepper(cl_model, 0.05)


def evaluate(x):
    cl_model.eval()
    return cl_model(x)


for x in xs:
    out = evaluate(x)
    step_fn(out)
show("closure", cl_model)

# backward reached through another object's method
class Hooks:
    def __init__(self, model):
        self.opt = torch.optim.SGD(model.parameters(), lr=0.2)

    def after_batch(self, out, y):
        self.opt.zero_grad()
        nn.functional.mse_loss(out, y).backward()
        self.opt.step()


ob_model = nn.Linear(3, 1)
hooks = Hooks(ob_model)


def predict(x):
    ob_model.eval()
    return ob_model(x)


for x, y in zip(xs, ys):
    hooks.after_batch(predict(x), y)
show("object", ob_model)

# an adversarial step: the gradient of the evaluated output with respect to the input
adv_model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))


def logits(x):
    adv_model.eval()
    return adv_model(x)


perturbed = []
for x in xs:
    x = x.clone().requires_grad_(True)
    out = logits(x)
    (g,) = torch.autograd.grad(out.sum(), x)
    perturbed.append((x + 0.1 * g.sign()).detach())
print("fgsm", [f"{v:.10f}" for v in torch.stack(perturbed).flatten().tolist()])

# outputs collected in the loop, back-propagated once after it
col_model = nn.Linear(3, 1)


def embed(x):
    col_model.eval()
    return col_model(x)


outs = []
for x in xs:
    outs.append(embed(x))
torch.stack(outs).pow(2).sum().backward()
print("collected", [f"{v:.10f}" for v in col_model.weight.grad.flatten().tolist()])

# the helper reads the grad mode and the output's requires_grad
gm_model = nn.Linear(3, 1)


def check(x):
    gm_model.eval()
    out = gm_model(x)
    return torch.is_grad_enabled(), out.requires_grad


flags = []
for x in xs:
    flags.append(check(x))
print("flags", flags)

# torch.autograd.backward (function form) on the evaluated output, gradients read after the loop
fb_model = nn.Linear(3, 1)


def forward_eval(x):
    fb_model.eval()
    return fb_model(x)


for x in xs:
    torch.autograd.backward(forward_eval(x).sum())
print("autograd.backward", [f"{v:.10f}" for v in fb_model.weight.grad.flatten().tolist()])
