import sys


def install(module):
    """Registers a hook that doubles the script's `scale` every forward."""
    def hook(mod, args, out):
        sys.modules.get("__main__").scale.mul_(2)
    module.register_forward_hook(hook)
