import torch.nn.functional as F


def regression(p, z):
    return 2 - 2 * (F.normalize(p, dim=-1) * F.normalize(z, dim=-1)).sum(-1).mean()


def asymmetric(p1, z2, p2, z1):
    # one side stops the gradient at the target, the other lets it through (a deliberate half-SimSiam)
    return 0.5 * regression(p1, z2.detach()) + 0.5 * regression(p2, z1)
