"""Gradient monitoring: a forward hook on each block registers a tensor hook on its output that
records the gradient norm flowing back through it, and clips it."""
import torch


class GradMonitor:
    def __init__(self, modules, clip=1.0):
        self.clip = clip
        self.norms = []
        self.handles = [m.register_forward_hook(self._forward) for m in modules]

    def _forward(self, module, inputs, output):
        if not any(p.requires_grad for p in module.parameters()):
            return  # a frozen block: nothing flows back through it
        output.register_hook(self._backward)

    def _backward(self, grad):
        n = grad.norm()
        self.norms.append(n.detach())
        return grad * torch.clamp(self.clip / (n + 1e-6), max=1.0)

    def drain(self):
        out, self.norms = self.norms, []
        return out
