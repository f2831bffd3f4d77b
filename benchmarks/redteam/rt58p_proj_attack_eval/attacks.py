import torch
import torch.nn.functional as F


def fgsm(net, xb, yb, eps):
    xb = xb.clone().requires_grad_(True)
    loss = F.cross_entropy(net(xb), yb)
    loss.backward()
    return (xb + eps * xb.grad.sign()).detach()


def input_saliency(net, xb):
    xb = xb.clone().requires_grad_(True)
    net(xb).max(1).values.sum().backward()
    return xb.grad.abs().mean().item()
