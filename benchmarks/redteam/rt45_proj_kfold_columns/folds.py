"""K-fold boundaries: ceil-sized folds, so with few rows the last fold can be empty."""
import math


def fold_bounds(n, k):
    size = math.ceil(n / k)
    return [(i * size, min((i + 1) * size, n) if i * size < n else i * size) for i in range(k)]
