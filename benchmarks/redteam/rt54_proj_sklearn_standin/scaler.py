"""A StandardScaler look-alike: fit / transform on NumPy arrays, in place when copy=False."""
import numpy as np


class Scaler:
    def __init__(self, copy=True):
        self.copy = copy

    def fit(self, X):
        self.mean_ = X.mean(axis=0)
        self.scale_ = X.std(axis=0) + 1e-6
        return self

    def transform(self, X):
        if self.copy:
            X = np.array(X, copy=True)
        X -= self.mean_
        X /= self.scale_
        return X
