"""Warmup then cosine, computed with `math` and written into every param group by hand."""
import math


def rate_at(step, base, warmup, total):
    if step < warmup:
        return base * (step + 1) / warmup
    prog = (step - warmup) / max(1, total - warmup)
    return base * 0.5 * (1.0 + math.cos(math.pi * min(1.0, prog)))


def set_rate(opt, lr):
    for group in opt.param_groups:
        group['lr'] = lr
