"""Red team 16's findings that need more than one unit: a class of a local module whose
`__index__` reads that module's state (torch converts the object on every call, so a size
built from it is not loop-invariant), and a local module's generator whose loop yields to a
consumer that changes what the loop's factories read."""

from __future__ import annotations

from pathlib import Path

from paef_cli import proved_lines

MAIN = """import torch

import shapes
from shapes import Width

W = Width()
sizes = []
for step in range(3):
    z = torch.zeros(W)
    c = torch.ones(3)
    shapes.grow()
    sizes.append((z.numel(), c.numel()))
print(sizes)
"""
SHAPES = """TABLE = {"n": 1}


class Width:
    def __index__(self):
        return TABLE["n"]


def grow():
    TABLE["n"] += 1
"""


def test_a_size_object_of_a_local_module_reading_its_state_is_not_hoisted(tmp_path: Path) -> None:
    """`torch.zeros(W)` converts `W` by `Width.__index__`, which reads `TABLE` (changed by
    `shapes.grow()`): not invariant; the constant `torch.ones(3)` still is. Fails on c3c609f
    (both hoisted)."""
    assert proved_lines(tmp_path, {"main.py": MAIN, "shapes.py": SHAPES}, "redundant-tensor") == [10]


def test_a_size_object_answering_a_constant_is_hoisted(tmp_path: Path) -> None:
    """Near miss: `__index__` answers a constant: the same size every iteration."""
    shapes = SHAPES.replace('return TABLE["n"]', "return 2")
    assert proved_lines(tmp_path, {"main.py": MAIN, "shapes.py": shapes}, "redundant-tensor") == [9, 10]


CONSUMER = """import torch

import feed

got = []
for v in feed.stream(3):
    got.append(v)
    feed.CFG["k"] += 1
print(got)
"""
FEED = """import torch

CFG = {"k": 1.0}


def stream(n):
    for i in range(n):
        t = torch.tensor(CFG["k"])
        c = torch.tensor([1.0, 2.0])
        yield float(t) + float(c.sum())
"""


def test_a_local_generator_loop_reading_module_state_is_not_hoisted(tmp_path: Path) -> None:
    """The consumer changes `feed.CFG` between `next()` calls: `torch.tensor(CFG["k"])` in the
    generator's loop is not invariant, the constant table is. Fails on c3c609f (both hoisted)."""
    files = {"main.py": CONSUMER, "feed.py": FEED}
    assert proved_lines(tmp_path, files, "redundant-tensor", entry="feed.py") == [9]
