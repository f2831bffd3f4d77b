"""Test-time metrics of the trained PINN: the residual on unseen points and the error against the exact
solution u(x) = sin(pi x)."""
import math

import torch

from physics import residual


def evaluate(model, points, device, batch=8):
    model.eval()
    res_total = 0.0
    err_total = 0.0
    per_batch = []
    for start in range(0, len(points), batch):
        xb = points[start:start + batch].to(device)
        r = residual(model, xb)
        pred = model(xb)
        exact = torch.sin(math.pi * xb)
        res_total += r.pow(2).mean().item()
        err_total += (pred - exact).abs().max().item()
        per_batch.append(r.abs().max().item())
    worst = torch.tensor(per_batch)
    return res_total, err_total, worst
