"""Training-loop plumbing in the style of small research repos: a step budget that stops training the way a
Ctrl-C would, a validation helper that raises on a diverging loss, and a fake allocator that raises the
CUDA out-of-memory RuntimeError text for batches above a capacity (so the OOM fallback runs on CPU too)."""


class StepBudget:
    def __init__(self, budget):
        self.budget = budget
        self.seen = 0

    def on_step(self):
        self.seen += 1
        if self.seen >= self.budget:
            raise KeyboardInterrupt


class Diverged(FloatingPointError):
    pass


def check_loss(value, limit):
    if value > limit:
        raise Diverged(f'loss {value:.4f} above {limit}')


def reserve(rows, capacity):
    if rows > capacity:
        raise RuntimeError(f'CUDA out of memory. Tried to allocate {rows * 4} MiB')
