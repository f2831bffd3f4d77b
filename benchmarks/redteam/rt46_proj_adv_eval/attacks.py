"""White-box attacks used by the robustness report. Both need the gradient of the loss with respect to the
INPUT, so they run with autograd on even though the model is in eval mode."""
import torch
import torch.nn.functional as F


def fgsm(model, x, y, eps):
    x = x.clone().detach().requires_grad_()
    loss = F.cross_entropy(model(x), y)
    model.zero_grad()
    loss.backward()
    return (x + eps * x.grad.sign()).detach()


def pgd_step(model, x, y, delta, alpha, eps):
    """One projected step. `delta` is the caller's perturbation: it is updated in place through `.data`,
    and its `.grad` is read and then cleared, as many PGD implementations do."""
    delta.requires_grad_(True)
    loss = F.cross_entropy(model(x + delta), y)
    loss.backward()
    delta.data.add_(alpha * delta.grad.sign()).clamp_(-eps, eps)
    delta.grad.zero_()
    return loss.detach()


@torch.no_grad()
def clean_correct(model, x, y):
    return (model(x).argmax(1) == y).sum()
