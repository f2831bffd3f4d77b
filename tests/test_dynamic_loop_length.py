"""Loop lengths read from a loop header, without running user code; window sizes from them."""

from __future__ import annotations

import pytest

from paef_jupyter.dynamic.line_tracer import MAX_WINDOW, UNSIZED_WINDOW, window_for
from paef_jupyter.dynamic.loop_length import loop_length

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
