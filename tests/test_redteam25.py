"""Red team 25: automatic rewrites of rules earlier red teams attacked least. `operator-fusion`
rewrote hand-written ReLU forms to `torch.relu` on integer and bool tensors where the form
promotes (`torch.where(x > 0, x, 0.0)` is a float tensor) or works (`mask * (mask > 0)`) and
`torch.relu` keeps the integer dtype or raises, and treated float tensors as integer ones because
the formula read an integer index (`feats[idx]`) or `dtype_of` kept the receiver's dtype through
`.to(x.dtype)`, and rewrote leaky ReLU to `F.leaky_relu` on integer tensors the dtype facts took for
float (`F.pad` of token ids, the indices of `out.max(1)[1]` / `torch.sort(x, dim=1)[1]`); `dict-as-list` hoisted `torch.LongTensor(d[key][i])`, whose one number is a size.
The programs are executed before and after `paef fix`. The single-unit shapes are fixtures:
`operator-fusion/refuse_relu_integer_promotions`, `neg_relu_zeros_of_another_dtype`,
`relu_integer_near_misses`, `refuse_leaky_relu_integer_results`, `leaky_relu_pair_values_near_misses`,
`dict-as-list/refuse_legacy_constructor_element`,
`legacy_constructor_near_misses`."""

from __future__ import annotations

from pathlib import Path

import pytest

from paef_cli import fix_keeps_output

REDTEAM = Path(__file__).resolve().parent.parent / "benchmarks" / "redteam"
PROGRAMS = ["rt25_fusion_integer_relu.py", "rt25_dict_columns.py", "rt25b_fusion_float_misread.py",
            "rt25b_legacy_ctor_elements.py", "rt25c_relu_of_gathered_rows.py", "rt25d_integer_results_misread.py"]


@pytest.mark.parametrize("program", PROGRAMS)
def test_fix_keeps_the_output(tmp_path: Path, program: str) -> None:
    """Fails on 11e9cf3: a ReLU rewritten to `torch.relu` changes a dtype, raises on a bool
    tensor or loses a float edge (NaN, -0.0); `F.leaky_relu` raises on integer indices; a legacy constructor's size becomes a value."""
    fix_keeps_output(tmp_path, REDTEAM / program)
