"""A hand-written reward on token lists: distinct tokens, an ascending run, ending properly, not too long."""
from policy import EOS


def reward(seq):
    body = seq[:-1] if seq and seq[-1] == EOS else seq
    r = 0.3 * len(set(body))
    run = 0
    for a, b in zip(body, body[1:]):
        run = run + 1 if b == a + 1 else 0
        r += 0.2 * run
    r += 1.0 if seq and seq[-1] == EOS else -1.0
    r -= 0.15 * max(0, len(body) - 5)
    return r
