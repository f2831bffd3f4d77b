"""Feature preprocessing shared by the training and evaluation scripts."""
import numpy as np


def standardise(raw):
    return (raw - raw.mean(axis=0)) / (raw.std(axis=0) + 1e-6)


def clip_outliers(feats, k=3.0):
    return np.clip(feats, -k, k)
