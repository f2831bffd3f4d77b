import torch.nn as nn
from torch.nn.modules.module import register_module_forward_pre_hook as before_forward

TARGETS = []


def _halve(module, args):
    if any(module is t for t in TARGETS):
        args[0].mul_(0.5)


def install(module: nn.Module):
    TARGETS.append(module)
    if len(TARGETS) == 1:
        before_forward(_halve)
