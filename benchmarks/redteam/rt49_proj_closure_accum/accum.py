"""Gradient-accumulation helpers: `apply` back-propagates an accumulated loss and steps; `every(k)` is a
`functools.wraps` decorator that lets a flush through on every k-th call only."""
import functools


def apply(total, n, opt):
    (total / n).backward()
    opt.step()
    opt.zero_grad()


def every(k):
    def deco(fn):
        calls = 0

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            nonlocal calls
            calls += 1
            if calls % k == 0:
                return fn(*args, **kwargs)
            return None

        return wrapper

    return deco
