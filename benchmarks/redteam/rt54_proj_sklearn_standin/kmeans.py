"""Lloyd's k-means on NumPy arrays with its own RandomState (a scikit-learn stand-in)."""
import numpy as np


def kmeans(X, k, seed, iters=15):
    rng = np.random.RandomState(seed)
    centers = X[rng.choice(len(X), k, replace=False)].astype(np.float64)
    for _ in range(iters):
        d = ((X[:, None, :] - centers[None]) ** 2).sum(-1)
        labels = d.argmin(1)
        for j in range(k):
            if (labels == j).any():
                centers[j] = X[labels == j].mean(0)
    inertia = float(((X - centers[labels]) ** 2).sum())
    return centers, labels, inertia
