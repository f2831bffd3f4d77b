"""Batch-level augmentation on the training device: Gaussian noise, random erasing masks and mixup.
Each draws from torch's global stream (noise, mask), NumPy's (mixup's lambda) or Python's (which
augmentation to use)."""
import random

import numpy as np
import torch


def noisy(xb, sigma, device):
    noise = torch.randn(xb.shape).to(device)
    return xb + sigma * noise


def erase(xb, p, device):
    keep = (torch.rand(xb.shape[0], 1) >= p).float().to(device)
    return xb * keep


def mixup(xb, yb, n_cls, alpha, device):
    lam = float(np.random.beta(alpha, alpha))
    perm = torch.randperm(xb.shape[0]).to(device)
    onehot = torch.eye(n_cls)[yb.cpu()].to(device)
    return lam * xb + (1 - lam) * xb[perm], lam * onehot + (1 - lam) * onehot[perm]


def pick():
    return random.choice(["noise", "erase", "mixup", "none"])
