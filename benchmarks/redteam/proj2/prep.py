import numpy as np

SCALE = 1.0
_calls = []


def set_scale(s):
    global SCALE
    SCALE = s


def normalise(a):
    return (a - a.mean(0)) / (a.std(0) + 1e-6) * SCALE


def counted(a):
    _calls.append(1)
    return a * len(_calls)
