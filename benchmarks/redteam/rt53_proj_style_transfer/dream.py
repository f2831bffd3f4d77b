"""Deep-dream style gradient ascent on an image: amplify one feature block's activations."""
import torch


def dream(net, img, block, steps, lr):
    img = img.clone().requires_grad_(True)
    norms = []
    net.eval()
    for _ in range(steps):
        act = net(img)[block]
        obj = act.norm()
        obj.backward()
        g = img.grad
        img.data += lr * g / (g.abs().mean() + 1e-8)
        img.data.clamp_(0.0, 1.0)
        img.grad.zero_()
        norms.append(obj.item())
    return img.detach(), norms
