"""Sine tasks with a fixed generator: amplitude and phase per task, support and query points."""
import math

import torch


def sample_tasks(n, k, gen):
    out = []
    for _ in range(n):
        amp = 0.5 + 2.0 * torch.rand((), generator=gen).item()
        phase = math.pi * torch.rand((), generator=gen).item()
        xs = torch.rand(k, 1, generator=gen) * 10 - 5
        xq = torch.rand(k, 1, generator=gen) * 10 - 5
        out.append((xs, amp * torch.sin(xs + phase), xq, amp * torch.sin(xq + phase)))
    return out
