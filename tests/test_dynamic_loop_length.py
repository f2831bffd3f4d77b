"""Loop lengths read from a loop header, without running user code; window sizes from them."""

from __future__ import annotations

import pytest

from paef_jupyter.dynamic.line_tracer import MAX_WINDOW, UNSIZED_WINDOW, window_for
from paef_jupyter.dynamic.loop_length import loop_iterable, loop_length

torch = pytest.importorskip("torch")


class Exploding:
    def __iter__(self):
        raise AssertionError("must not be iterated")

    def __len__(self):
        raise AssertionError("must not be asked")


NS = {"n": 12, "batches": torch.randn(20, 3), "names": ["a", "b", "c"], "gen": (i for i in range(3)),
      "odd": Exploding()}


@pytest.mark.parametrize(
    "source, expected",
    [
        ("range(n)", 12),
        ("range(2, n, 5)", 2),
        ("range(len(names))", 3),
        ("batches", 20),
        ("zip(batches, names)", 3),
        ("enumerate(names)", 3),
        ("[1, 2]", 2),
        ("gen", None),
        ("odd", None),
        ("loader", None),  # not defined yet
        ("model.parameters()", None),
        ("range(f())", None),
        ("", None),
    ],
)
def test_loop_length(source, expected):
    assert loop_length(source, NS, {}) == expected


def test_locals_shadow_globals_and_dataloader_has_a_length():
    from torch.utils.data import DataLoader, TensorDataset

    loader = DataLoader(TensorDataset(torch.randn(50, 2)), batch_size=8)
    assert loop_length("loader", {"loader": []}, {"loader": loader}) == 7


def test_loop_iterable_finds_the_header_of_the_loop_at_a_line():
    text = "x = 1\nfor i, b in enumerate(batches):\n    for j in range(3):\n        pass\nwhile x:\n    x = 0\n"
    assert loop_iterable(text, 2) == "enumerate(batches)"
    assert loop_iterable(text, 3) == "range(3)"
    assert loop_iterable(text, 5) == ""  # a while loop


def test_window_is_a_bounded_share_of_the_loop():
    assert window_for(None) == UNSIZED_WINDOW
    assert window_for(1) == (0, 1) and window_for(2) == (0, 2)
    # At least 3 iterations where the loop has them (after the warm-up and one settling one).
    assert window_for(4) == (1, 2) and window_for(5) == (1, 3)
    assert window_for(16) == (1, 3)
    assert window_for(39) == (2, 3) and window_for(40) == (2, 3)
    assert window_for(100) == (2, 5)
    assert window_for(10_000) == (2, MAX_WINDOW)
