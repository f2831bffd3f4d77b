"""host-sync's per-row read rewrite: `t[u].<reduction>().item()` for every `u` equals
`t.unsqueeze(-1).flatten(1).<reduction>(1).tolist()[u]`, exactly, whatever `t`'s rank and
dtype, with ties and NaNs (the formula the fix writes, checked on the values it meets)."""

from __future__ import annotations

import pytest
import torch

from paef_jupyter.static.rules._row_reads import EXACT_REDUCTIONS

SHAPES = [(5,), (5, 4), (5, 2, 3), (1, 7), (3, 1, 1)]


def _tensors(shape: tuple[int, ...]) -> list[torch.Tensor]:
    g = torch.Generator().manual_seed(len(shape))
    floats = torch.randn(shape, generator=g)
    ties = torch.randint(0, 2, shape, generator=g).float()  # many equal maxima: the first index wins
    nans = floats.clone()
    nans.view(-1)[::3] = float("nan")
    ints = torch.randint(-3, 3, shape, generator=g)
    return [floats, ties, nans, ints, floats.half(), floats.t() if floats.dim() == 2 else floats]


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("name", sorted(EXACT_REDUCTIONS))
def test_one_read_of_all_rows_equals_the_row_by_row_reads(shape: tuple[int, ...], name: str) -> None:
    for t in _tensors(shape):
        if name in ("any", "all"):
            t = t > 0
        rows = getattr(t.unsqueeze(-1).flatten(1), name)(1)
        whole = (rows.values if EXACT_REDUCTIONS[name] else rows).tolist()
        one_by_one = [getattr(t[u], name)().item() for u in range(len(t))]
        assert len(whole) == len(one_by_one)
        for a, b in zip(whole, one_by_one):
            assert type(a) is type(b)
            assert a == b or (a != a and b != b)  # NaN maxima are NaN both ways


def test_a_zero_dim_tensor_fails_both_ways() -> None:
    t = torch.tensor(3.0)
    with pytest.raises(IndexError):
        t[0].argmax()
    with pytest.raises(IndexError):
        t.unsqueeze(-1).flatten(1)
