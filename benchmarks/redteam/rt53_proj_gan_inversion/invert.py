"""Latent optimisation: find z with G(z) close to a target, from a warm start."""
import torch


def invert(gen, target, z0, steps, lr, lam):
    z = z0.detach().clone().requires_grad_(True)
    opt = torch.optim.Adam([z], lr=lr)
    path = []
    losses = []
    for t in range(steps):
        recon = gen(z)
        weight = torch.tensor([lam], device=target.device)
        loss = ((recon - target) ** 2).sum(1).mean() + (weight * z ** 2).sum(1).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        path.append(z)
        losses.append(loss.item())
        lam = lam * 0.8
    return z.detach(), path, losses
