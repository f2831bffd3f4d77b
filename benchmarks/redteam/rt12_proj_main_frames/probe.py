import inspect
import sys


def record(x):
    """Adds to the caller's `hist`, found through the caller's frame."""
    inspect.currentframe().f_back.f_globals["hist"].add_(x)


def bump():
    sys._getframe(1).f_globals["steps"].mul_(2)


def total_seen():
    return inspect.stack()[1].frame.f_globals["running"]
