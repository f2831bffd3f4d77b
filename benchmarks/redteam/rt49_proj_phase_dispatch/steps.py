"""Step functions shared by the phase loops. `fit_step` trains; `score_step` only measures; `adapt_entropy`
is a test-time-adaptation method bound onto a model instance by the runner (one gradient step on the
prediction entropy of the batch before scoring it)."""
import torch
import torch.nn.functional as F


def fit_step(opt, model, x, y):
    out = model(x)
    loss = F.cross_entropy(out, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return out, loss


def score_step(model, x, y):
    out = model(x)
    return out, F.cross_entropy(out, y)


def adapt_entropy(self, x, lr=0.05):
    probs = self(x).softmax(-1)
    ent = -(probs * probs.clamp_min(1e-9).log()).sum(-1).mean()
    grads = torch.autograd.grad(ent, [self[-1].bias])
    with torch.no_grad():
        self[-1].bias -= lr * grads[0]
    return ent


class Steps:
    """Steps looked up by phase name (`getattr(Steps, phase)`)."""

    optimizer = None

    @staticmethod
    def train(model, x, y):
        return fit_step(Steps.optimizer, model, x, y)

    @staticmethod
    def val(model, x, y):
        return score_step(model, x, y)
