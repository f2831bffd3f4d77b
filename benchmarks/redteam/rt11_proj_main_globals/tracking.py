import __main__

import torch


def record(x):
    """Adds the sample to the script's running histogram (a global of the main script)."""
    __main__.hist.mul_(0.9).add_(x)


def log_total(step):
    """Reports the script's running loss total every few steps."""
    if step % 2 == 1:
        print("step", step, "total", __main__.total)


def on_step(optimizer, args, kwargs):
    """An optimizer post-step hook: counts steps in the script's tensor counter."""
    __main__.steps.add_(1)


def attach(optimizer):
    optimizer.register_step_post_hook(on_step)


def scale_inputs(module, args):
    torch.mul(args[0], 0.5, out=args[0])


def install(module):
    module.register_forward_pre_hook(scale_inputs)
