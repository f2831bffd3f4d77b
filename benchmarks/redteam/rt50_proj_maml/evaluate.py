"""Meta-test: adapt on each task's support set (first order), score on its query set."""
import torch
import torch.nn.functional as F

from inner import adapt, forward


def meta_test(weights, tasks, device):
    scores = []
    for xs, ys, xq, yq in tasks:
        fast = adapt(weights, xs.to(device), ys.to(device), steps=3, second_order=False)
        pred = forward(xq.to(device), fast)
        scores.append(F.mse_loss(pred, yq.to(device)).item())
    return torch.tensor(scores)
