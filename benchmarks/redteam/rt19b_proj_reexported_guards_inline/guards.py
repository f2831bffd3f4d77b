"""Error-tolerance helpers shared by the training scripts."""
from contextlib import ExitStack as Stack
from contextlib import suppress as ignore_errors

__all__ = ["ignore_errors", "Stack", "skip_bad_batches"]


def skip_bad_batches(*kinds):
    return ignore_errors(*kinds)
