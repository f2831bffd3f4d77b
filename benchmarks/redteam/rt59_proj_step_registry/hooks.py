"""Activation and gradient monitors attached with module hooks."""
import warnings

import torch

warnings.filterwarnings("ignore", message="Full backward hook")


class Monitor:
    def __init__(self, model):
        self.bn_means = []
        self.grad_out = []
        self.handles = []
        for m in model.modules():
            if isinstance(m, torch.nn.BatchNorm1d):
                self.handles.append(m.register_forward_hook(self._forward))
            if isinstance(m, torch.nn.Linear):
                self.handles.append(m.register_full_backward_hook(self._backward))

    def _forward(self, module, inputs, output):
        self.bn_means.append(output.mean().item())

    def _backward(self, module, grad_input, grad_output):
        self.grad_out.append(grad_output[0].norm())

    def summary(self):
        g = torch.stack(self.grad_out) if self.grad_out else torch.zeros(1)
        return round(sum(self.bn_means) / max(len(self.bn_means), 1), 4), round(g.mean().item(), 4), len(self.grad_out)
