"""Feature-space augmentations. Each module keeps its own random stream, seeded once at import, as many
training repos do so that augmentation does not disturb the model's torch stream."""
import random

import numpy as np

_gen = np.random.default_rng(11)
_py = random.Random(3)


def jitter(table, scale=0.05):
    """The table plus fresh Gaussian noise: a new draw on every call."""
    return table + scale * _gen.standard_normal(table.shape).astype(table.dtype)


def keep_mask(n, p=0.8):
    """Rows kept by feature dropout, drawn from the module's Python stream."""
    return np.array([_py.random() < p for _ in range(n)])


def normalise(table):
    """Pure: column z-scores."""
    return (table - table.mean(0)) / (table.std(0) + 1e-6)
