"""Training, evaluation and test-time adaptation steps, registered by name."""
import torch
import torch.nn.functional as F

STEPS = {}


def register(name):
    def deco(fn):
        STEPS[name] = fn
        return fn
    return deco


def bn_affine(model):
    return [p for m in model.modules() if isinstance(m, torch.nn.BatchNorm1d) for p in (m.weight, m.bias)]


class Steps:
    """Holds the optimizers the steps share."""

    def __init__(self, model, lr=5e-3, adapt_lr=2e-2):
        self.opt = torch.optim.Adam(model.parameters(), lr=lr)
        self.adapt_opt = torch.optim.SGD(bn_affine(model), lr=adapt_lr, momentum=0.9)


@register("train")
def train_step(ctx, model, xb, yb):
    logits = model(xb)
    loss = F.cross_entropy(logits, yb)
    ctx.opt.zero_grad()
    loss.backward()
    ctx.opt.step()
    return loss.item()


@register("eval")
def eval_step(ctx, model, xb, yb):
    logits = model(xb)
    return (logits.argmax(1) == yb).float().sum().item()


@register("adapt")
def adapt_step(ctx, model, xb, yb):
    # entropy minimisation on the BatchNorm affine parameters (labels unused)
    probs = F.softmax(model(xb), dim=1)
    ent = -(probs * torch.log(probs + 1e-8)).sum(1).mean()
    ctx.adapt_opt.zero_grad()
    ent.backward()
    ctx.adapt_opt.step()
    return (probs.argmax(1) == yb).float().sum().item()
