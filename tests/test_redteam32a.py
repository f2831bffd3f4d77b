"""Red team 32a (blind, on the rewrites public code gets most: eval-without-no-grad, host-sync's
device accumulation, graph-retention): what fell at first contact.

- eval-without-no-grad: outputs that reach text through a holder the analysis did not follow (a
  dict stored by subscript, an object one of whose methods keeps them and whose `__repr__` shows
  them, a dict shown by `pprint`), and, found by reading, a cache written with `torch.save` that a
  later cell loads and prints;
- host-sync: a run-wide float sum set before an epoch loop and carried across its passes: a pass
  whose loop ran no iteration (a spent step budget) read back the Python float through
  `torch.as_tensor`, i.e. float32 (now read back as float64; an int start carried so is left to review);
- graph-retention: an epoch sum reaching `backward()` through a `for` over the terms (and, found
  by reading, an augmented assignment), which the flow into backward's names did not follow.
Wave 2 (re-aimed at where values are shown): eval-without-no-grad outputs printed by a `for` over
the list keeping them, by a program function handed them, by the caller a `predict()` returns them
to, kept by `setattr`; graph-retention totals printed through a `for` over (name, value) pairs.
`benchmarks/results/redteam32a.md` has the numbers.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from paef_cli import fix_keeps_output

from paef_jupyter.api import analyze_path

REDTEAM = Path(__file__).resolve().parent.parent / "benchmarks" / "redteam"
# Harmful at first contact on bbd6b4c5 (wave 1): (program, rule, line of the finding).
HARMFUL = [
    ("rt32a_ev_dict_samples.py", "eval-without-no-grad", 37),
    ("rt32a_ev_meter_repr.py", "eval-without-no-grad", 58),
    ("rt32a_ev_pprint_report.py", "eval-without-no-grad", 37),
    # wave 2 (on 8c167a6e): shown through a `for`, a helper, the caller, a `setattr` record
    ("rt32a2_ev_loop_over_kept.py", "eval-without-no-grad", 34),
    ("rt32a2_ev_predict_returned.py", "eval-without-no-grad", 16),
    ("rt32a2_ev_setattr_record.py", "eval-without-no-grad", 35),
    ("rt32a2_ev_show_helper.py", "eval-without-no-grad", 40),
    ("rt32a2_gr_totals_listed_in_for.py", "graph-retention", 36),
    ("rt32a2_gr_totals_listed_in_for.py", "graph-retention", 37),
]


def _findings(path: Path, rule: str) -> list[tuple[int, bool]]:
    return [(f.line, f.fixable) for f in analyze_path(str(path)).findings if f.rule == rule]


@pytest.mark.parametrize(("program", "rule", "line"), HARMFUL)
def test_still_reported_but_left_to_review(program: str, rule: str, line: int) -> None:
    assert (line, False) in _findings(REDTEAM / program, rule)


def test_run_wide_float_sum_is_read_back_as_float64(tmp_path: Path) -> None:
    """The carried float sum stays an automatic rewrite, its read-back made float64 (the
    `test_fix_keeps_the_output` case below runs it)."""
    assert (41, True) in _findings(REDTEAM / "rt32a_hs_step_budget.py", "host-sync")
    report = analyze_path(str(REDTEAM / "rt32a_hs_step_budget.py"))
    fix = next(f.fix for f in report.findings if f.rule == "host-sync" and f.line == 41)
    assert "dtype=torch.float64" in fix.suggestion


def test_sum_backwarded_through_a_for_over_terms_is_not_detached() -> None:
    assert _findings(REDTEAM / "rt32a_gr_terms_backward_each.py", "graph-retention") == []


def test_cache_saved_for_a_later_cell_is_left_to_review(tmp_path: Path) -> None:
    """The notebook's own print of a count (wrongly taken for a tensor) kept it under review at
    first contact; without that line, the `torch.save` of the outputs must keep it there."""
    import json

    nb = json.loads((REDTEAM / "rt32a_nb_ev_cached_embeddings.ipynb").read_text())
    nb["cells"][2]["source"] = [s for s in nb["cells"][2]["source"] if not s.startswith('print("cached"')]
    path = tmp_path / "cached.ipynb"
    path.write_text(json.dumps(nb))
    report = analyze_path(str(path))
    found = [f for f in report.findings if f.rule == "eval-without-no-grad"]
    assert found and not any(f.fixable for f in found)
    assert "torch.save" in found[0].fix.review


@pytest.mark.parametrize("program", sorted({h[0] for h in HARMFUL} | {"rt32a_gr_terms_backward_each.py",
                                                                       "rt32a_hs_step_budget.py"}))
def test_fix_keeps_the_output(tmp_path: Path, program: str) -> None:
    fix_keeps_output(tmp_path, REDTEAM / program)
