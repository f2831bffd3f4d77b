import torch


def forces(energy_fn, pos):
    """Forces as minus the gradient of the energy (needs autograd even at evaluation)."""
    pos = pos.detach().requires_grad_(True)
    e = energy_fn(pos).sum()
    return -torch.autograd.grad(e, pos)[0]


def penalty(critic, real, fake):
    """A WGAN-GP style gradient penalty, reported at validation."""
    eps = torch.full((real.shape[0], 1), 0.5)
    mix = (eps * real + (1 - eps) * fake).requires_grad_(True)
    out = critic(mix)
    (g,) = torch.autograd.grad(out.sum(), mix, create_graph=True)
    return ((g.norm(dim=1) - 1) ** 2).mean()
