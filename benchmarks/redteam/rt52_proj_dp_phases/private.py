"""Per-sample gradients with torch.func, clipped per sample and noised (a DP-SGD step by hand)."""
import torch
import torch.nn.functional as F
from torch.func import functional_call, grad, vmap


def dp_step(model, x, y, lr, clip, sigma, gen):
    params = {k: v.detach() for k, v in model.named_parameters() if v.requires_grad}
    buffers = dict(model.named_buffers())

    def loss_one(p, xi, yi):
        out = functional_call(model, (p, buffers), (xi.unsqueeze(0),))
        return F.cross_entropy(out, yi.unsqueeze(0))

    grads = vmap(grad(loss_one), in_dims=(None, 0, 0), randomness='same')(params, x, y)
    norms = torch.sqrt(sum(g.flatten(1).pow(2).sum(1) for g in grads.values()))
    factor = torch.clamp(clip / (norms + 1e-6), max=1.0)
    clipped = []
    with torch.no_grad():
        for name, p in model.named_parameters():
            if name not in grads:
                continue
            g = (grads[name] * factor.view(-1, *[1] * (grads[name].dim() - 1))).sum(0)
            noise = torch.randn(g.shape, generator=gen).to(g.device) * sigma * clip
            p.sub_(lr * (g + noise) / x.shape[0])
            clipped.append(g.norm().item())
    return norms, clipped
