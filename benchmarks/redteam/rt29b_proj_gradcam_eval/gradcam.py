"""Grad-CAM: hooks on the last convolution keep its activations and, through a tensor hook,
the gradient that flows back into them."""
import torch


class GradCAM:
    def __init__(self, model, layer):
        self.model = model
        self.activations = None
        self.gradients = None
        layer.register_forward_hook(self._forward_hook)

    def _forward_hook(self, module, inputs, output):
        self.activations = output
        output.register_hook(self._save_gradient)

    def _save_gradient(self, grad):
        self.gradients = grad

    def __call__(self, x, target):
        logits = self.model(x)
        self.model.zero_grad()
        logits.gather(1, target[:, None]).sum().backward()
        weights = self.gradients.mean(-1, keepdim=True)
        cam = torch.relu((weights * self.activations).sum(1))
        return cam / (cam.amax(-1, keepdim=True) + 1e-8)
