"""Residual of the 1-D Poisson problem u''(x) = -pi^2 sin(pi x). Derivatives are taken with respect to the
INPUT points, so the residual needs autograd even when the network is only being evaluated."""
import math

import torch


def second_derivative(u, x):
    """d2u/dx2 at x; create_graph so that the residual can itself be trained through."""
    (du,) = torch.autograd.grad(u.sum(), x, create_graph=True)
    (d2u,) = torch.autograd.grad(du.sum(), x, create_graph=True)
    return d2u


def residual(model, x):
    """PDE residual at the points x (a fresh leaf that requires grad)."""
    x = x.clone().requires_grad_(True)
    u = model(x)
    return second_derivative(u, x) + (math.pi ** 2) * torch.sin(math.pi * x)


def boundary_error(model, device):
    ends = torch.tensor([[0.0], [1.0]]).to(device)
    return model(ends).pow(2).mean()
