import importlib


def record(x):
    """Adds the batch to the script's histogram, found by module name."""
    importlib.import_module("__main__").hist.add_(x)


def bump():
    importlib.import_module("__main__").steps.mul_(2)
