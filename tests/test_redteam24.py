"""Red team 24: automatic hoists of NumPy work on arrays that are views made by names the view
tables lacked (`astype(copy=False)`, `np.array(copy=False)`, NumPy 2's `np.permute_dims` /
`np.matrix_transpose` / `np.unstack`, `np.diag`, `np.trim_zeros`, `np.require`, `np.asmatrix`,
`np.broadcast_arrays`, unbound `np.ndarray.view` / `.reshape`, `nn.Parameter(t)`,
`torch.unsafe_split`), of views made by `np.asarray_chkfinite`, `np.rollaxis`, `np.real_if_close`,
`np.ma.getdata` (wave 5), of an array written through `with np.nditer(...) as it` or by
`np.put_along_axis` (wave 6), and of NumPy one-shot iterators and a `np.fromfunction` running program
code (wave 7). The programs
are executed before and after `paef fix`. The single-unit shapes are fixtures:
`cpu-function/neg_view_made_by_unlisted_names`, `views_by_other_names_near_misses`,
`redundant-tensor/neg_tensor_of_view_made_by_unlisted_names`,
`tensor_of_view_made_by_unlisted_names_near_misses`, `cpu-function/neg_view_named_like_a_view`, `neg_array_written_by_put_along_axis`,
`put_along_axis_near_misses`, `neg_numpy_iterators_and_callbacks`, `numpy_iterators_and_callbacks_near_misses`."""

from __future__ import annotations

from pathlib import Path

import pytest

from paef_cli import fix_keeps_output

REDTEAM = Path(__file__).resolve().parent.parent / "benchmarks" / "redteam"
PROGRAMS = ["rt24d_views_by_other_names.py", "rt24d_nditer_writes.py", "rt24e_views_beyond_the_tables.py",
            "rt24f_put_along_axis.py", "rt24g_iterators_and_callbacks.py"]


@pytest.mark.parametrize("program", PROGRAMS)
def test_fix_keeps_the_output(tmp_path: Path, program: str) -> None:
    """Fails on f586b40: 16 hoisted arrays (and one tensor) read the first iteration's memory of
    an array the loop changes through a view the analysis took for a copy."""
    fix_keeps_output(tmp_path, REDTEAM / program)
