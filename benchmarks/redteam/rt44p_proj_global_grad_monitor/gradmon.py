"""Gradient monitoring plugin: importing it installs a global forward hook on every module that
attaches a gradient hook to each output, recording gradient norms per module type."""
from collections import defaultdict

import torch

norms = defaultdict(list)


def _watch(module, inputs, output):
    if isinstance(output, torch.Tensor):
        name = type(module).__name__
        output.register_hook(lambda grad: norms[name].append(round(grad.norm().item(), 8)))


torch.nn.modules.module.register_module_forward_hook(_watch)
