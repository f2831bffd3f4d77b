"""Red team 18's findings across units: a context manager defined in a local module that may
swallow the exception leaving a training loop (the read-back host-sync places after the loop is
then skipped), and a value derived from a running loss total handed to a local module's
function that keeps it (the detach graph-retention offers would cut its graph)."""

from __future__ import annotations

from pathlib import Path

from managed_loop import managed_loop
from paef_cli import proved_lines

GUARDS = """import contextlib


class Guard:
    def __enter__(self):
        return self

    def __exit__(self, kind, value, tb):
        return kind is KeyboardInterrupt


class Timer:
    def __enter__(self):
        return self

    def __exit__(self, kind, value, tb):
        return None


@contextlib.contextmanager
def tolerant():
    try:
        yield
    except KeyboardInterrupt:
        pass
"""
def _main(manager: str) -> str:
    return managed_loop(f"from guards import {manager}\n", f"{manager}()")


def test_a_local_modules_manager_returning_true_from_exit_is_for_review(tmp_path: Path) -> None:
    """`Guard.__exit__` may return True: an interrupt leaving the loop is swallowed, the
    read-back after the loop is skipped, the print sees a tensor. Fails on 6456835 (line 16)."""
    files = {"main.py": _main("Guard"), "guards.py": GUARDS}
    assert proved_lines(tmp_path, files, "host-sync") == []


def test_a_local_modules_generator_manager_catching_around_yield_is_for_review(tmp_path: Path) -> None:
    """`tolerant` catches around its `yield`. Fails on 6456835 (line 16)."""
    files = {"main.py": _main("tolerant"), "guards.py": GUARDS}
    assert proved_lines(tmp_path, files, "host-sync") == []


def test_a_local_modules_manager_returning_none_keeps_the_rewrite(tmp_path: Path) -> None:
    """Near miss: `Timer.__exit__` returns None, nothing is swallowed."""
    files = {"main.py": _main("Timer"), "guards.py": GUARDS}
    assert proved_lines(tmp_path, files, "host-sync") == [16]


LOGGER = """kept = []


def keep(value):
    kept.append(value)
"""
TRAIN = """import torch
from torch import nn
import logger

model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
data = [(torch.randn(4, 3), torch.randn(4, 1)) for _ in range(3)]
total = 0
for k, (x, y) in enumerate(data):
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    total += loss
    logger.keep(AVG)
print([v.requires_grad if hasattr(v, "requires_grad") else v for v in logger.kept])
"""


def test_a_derived_total_handed_to_a_local_modules_function_is_for_review(tmp_path: Path) -> None:
    """`logger.keep(total / (k + 1))` keeps the average with its graph; the caller then reads
    `requires_grad`. Fails on 6456835 (line 14 fixable)."""
    files = {"main.py": TRAIN.replace("AVG", "total / (k + 1)"), "logger.py": LOGGER}
    assert proved_lines(tmp_path, files, "graph-retention") == []


def test_a_derived_total_handed_on_as_a_number_keeps_the_rewrite(tmp_path: Path) -> None:
    """Near miss: the average is a number (`.item()`) before the module keeps it."""
    files = {"main.py": TRAIN.replace("AVG", "(total / (k + 1)).item()"), "logger.py": LOGGER}
    assert proved_lines(tmp_path, files, "graph-retention") == [14]
