import importlib
import sys


def record(x):
    importlib.import_module("__main__").hist.add_(x)


def bump():
    sys.modules.get("__main__").steps.mul_(2)


def scale(x):
    vars(sys.modules["__main__"])["acc"].add_(x * 0.5)
