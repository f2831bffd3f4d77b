"""Feature preparation for the distillation script: the NumPy helpers and the knobs they read,
with the schedule that anneals those knobs between epochs."""
import numpy as np

CONFIG = {"temperature": 4.0}
SMOOTHING = [0.0]


def soften(scores):
    z = scores / CONFIG["temperature"]
    e = np.exp(z - z.max(axis=1, keepdims=True))
    p = e / e.sum(axis=1, keepdims=True)
    return ((1.0 - SMOOTHING[0]) * p + SMOOTHING[0] / p.shape[1]).astype(np.float32)


def anneal(factor):
    CONFIG["temperature"] = max(1.0, CONFIG["temperature"] * factor)
    SMOOTHING[0] = SMOOTHING[0] + 0.05
