"""Red team 26: calls outside torch and NumPy were read as returning new memory unless a view was
seen: helpers returning their argument or part of it (the first of a returned pair, a static
method's `ravel()`), `operator.itemgetter`, `functools.lru_cache` tables a caller changes, rows
handed back by `list(t)` / `row_of(t, i)` / `same(t)` and changed in place. `cpu-function` and
`redundant-tensor` hoisted work on them, `ping-pong` dropped the `clone()` of a round trip.
The programs are executed before and after `paef fix` (the wave-1 ones fixed on the branch; the
wave-2 ones still harmful - state-object fields, `zip(*...)` rows - are listed in
`benchmarks/results/redteam26.md` and not tested here). The single-unit shapes are fixtures:
`cpu-function/neg_views_handed_back_by_outside_calls`, `fresh_helper_results_near_misses`,
`ping-pong/changed_through_outside_calls`."""

from __future__ import annotations

from pathlib import Path

import pytest

from paef_cli import fix_keeps_output

REDTEAM = Path(__file__).resolve().parent.parent / "benchmarks" / "redteam"
PROGRAMS = ["rt26_helpers_return_views.py", "rt26_cached_tables.py", "rt26_tensor_aliases_by_helpers.py"]


@pytest.mark.parametrize("program", PROGRAMS)
def test_fix_keeps_the_output(tmp_path: Path, program: str) -> None:
    """Fails on 1f8f3da: a hoist or a round trip without `clone()` sees a later in-place change
    made through a value a call outside torch handed back."""
    fix_keeps_output(tmp_path, REDTEAM / program)



@pytest.mark.parametrize("program", ["blind_char_rnn_detach.py", "blind3_word_lm_tbptt.py"])
def test_a_recursive_helper_is_analysed(program: str) -> None:
    """On the merge of red team 26 a recursive helper (`repackage_hidden` of the word-LM examples:
    `tuple(repackage_hidden(v) for v in h)`) sent `result_roots` round its own call until Python's
    stack ran out: the whole file was 'nested too deeply to analyse' and its findings lost."""
    from paef_jupyter import api

    report = api.analyze_path(str(REDTEAM.parent / "corpus" / program))
    assert not report.errors
    assert any(f.rule == "host-sync" for f in report.findings)
