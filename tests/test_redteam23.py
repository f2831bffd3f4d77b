"""Red team 23: automatic hoists that read memory or run code out of the analysis' sight, on new ground.
NumPy views bound by walrus expressions (statements, conditions, comprehensions); views made by a
`functools.partial`, a lambda's default, `__getattr__`, a helper's default argument, a helper returning
a view of a global, a method, `getattr(t, "numpy")()`, names unpacked from a container name or by a
starred target; a tensor changed by a tensor hook that `backward()` runs, or by `torch._foreach_add_`;
NumPy work that may raise hoisted from under `if`/`match`, after a `break`, or out of an inner loop that
does not run. The programs are executed before and after `paef fix`. The single-unit shapes are
fixtures: `cpu-function/neg_view_bound_by_walrus`, `neg_view_made_out_of_sight`,
`neg_view_changed_by_hook_or_foreach`, `refuse_site_may_not_run`, `views_out_of_sight_near_misses`."""

from __future__ import annotations

from pathlib import Path

import pytest

from paef_cli import fix_keeps_output

REDTEAM = Path(__file__).resolve().parent.parent / "benchmarks" / "redteam"
PROGRAMS = ["rt23_walrus_statements.py", "rt23_hooks_state.py", "rt23_out_and_index_writes.py",
            "rt23_try_control_flow.py", "rt23_views_out_of_sight.py", "rt23b_views_by_helpers.py",
            "rt23b_inplace_functions.py"]


@pytest.mark.parametrize("program", PROGRAMS)
def test_fix_keeps_the_output(tmp_path: Path, program: str) -> None:
    """Fails on eb0de27: a hoisted array reads the first iteration's memory, or a hoisted
    `np.linalg.inv` of a singular matrix raises where the loop never ran it."""
    fix_keeps_output(tmp_path, REDTEAM / program)
