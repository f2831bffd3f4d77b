"""`paef fix` is stable: once it has run, running it again changes nothing.

A rewrite's output must read as fixed. For every demo and a deterministic sample of the
corpus, the automatic fixes are applied the way `paef fix` applies them (`api.rewrite`); every
rule fixture's `.out.py` is its `.in.py` so fixed. The result is analysed again, and
- no automatic fix is left that a second `paef fix` would apply;
- no rule reports a new finding (of any severity) on a line its own rewrite wrote: a concern
  the analysis had before the fix (one the fix left alone) may stay, but a rule that flags the
  code it wrote would keep asking for a change the user has already made.
"""

from __future__ import annotations

import difflib
import os
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

import pytest

from benchmarks import score_corpus as sc
from paef_jupyter import api
from paef_jupyter.fix import apply_findings
from paef_jupyter.model import CellRef, Finding, Report, SourceUnit
from paef_jupyter.units import read_units
from tests.rule_fixtures import pairs

ROOT = Path(__file__).resolve().parents[1]
DEMOS = sorted((ROOT / "demo_notebooks").glob("*.ipynb")) + sorted((ROOT / "demo_notebooks").glob("*.py"))


def _corpus_files() -> list[Path]:
    """Every file of every corpus program, or with PAEF_IDEMPOTENT_SAMPLE (the default, for CI
    time) the programs that have something to fix: `clean_*` programs are labelled as having
    nothing, so a fix there is already a failure of test_corpus/test_clean_programs."""
    programs = sc.discover()
    if os.environ.get("PAEF_IDEMPOTENT_FULL") != "1":
        programs = [p for p in programs if not p.name.startswith("clean_")]
    return [f for p in programs for f in sc.program_files(p)]


PROGRAMS = DEMOS + _corpus_files()


def _written_lines(old: str, new: str) -> set[int]:
    """1-based lines of `new` that the rewrite inserted or changed."""
    matcher = difflib.SequenceMatcher(a=old.splitlines(), b=new.splitlines(), autojunk=False)
    return {j + 1 for tag, _, _, j1, j2 in matcher.get_opcodes() if tag != "equal" for j in range(j1, j2)}


def _on(finding: Finding, lines: set[int]) -> bool:
    return any(finding.line <= n <= max(finding.end_line, finding.line) for n in lines)


def _problems(units: list[SourceUnit], fixed: list[SourceUnit], writers: list[set[str]], left: Report,
              before: Callable[[], Report], rules: set[str] | None = None) -> list[str]:
    """What a second `paef fix` of `fixed` (`units` after the fixes of the rules `writers[i]`
    in unit i; `left` its analysis, `before` that of `units`) would still apply, from `rules`
    (default all), or report anew on a rewritten line. Other rules may report a rewritten line:
    one fix can uncover another (a hoisted constant makes the loop using it vectorisable), which
    is why `api.rewrite` re-analyses."""
    problems: list[str] = []
    for unit, out, wrote in zip(units, fixed, writers):
        mine = [f for f in left.top(len(left.findings)) if f.ref.key == out.ref.key]
        _, done, _ = apply_findings(out.text, [f for f in mine if rules is None or f.rule in rules])
        problems += [f"a second fix applies {f.rule} at line {f.line}: {f.message[:120]}" for f in done]
        written = _written_lines(unit.text, out.text)
        suspects = [f for f in mine if f.rule in wrote and _on(f, written)]
        if not suspects:
            continue
        known = Counter((f.rule, f.message) for f in before().findings if f.ref.key == unit.ref.key)
        problems += [
            f"{f.rule} reports its own rewrite at line {f.line} (cell {f.ref.cell}): {f.message[:120]}"
            for f in suspects
            if known[(f.rule, f.message)] == 0  # else the same concern as before the fix, left by it
        ]
    return problems


@pytest.mark.parametrize("pair", pairs(), ids=lambda p: f"{p[0].parent.name}/{p[0].name}")
def test_fixture_output_is_left_alone_by_a_second_fix(pair: tuple[Path, Path]) -> None:
    """`.out.py` is what the fixes of the fixture's rule made of `.in.py` (test_rules checks that)."""
    source, out = pair
    rule = {source.parent.name}
    unit = SourceUnit(CellRef(str(source)), source.read_text())
    fixed = [replace(unit, text=out.read_text())]
    problems = _problems([unit], fixed, [rule], api.analyze(fixed), lambda: api.analyze([unit]), rules=rule)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: str(p.relative_to(ROOT)))
def test_fix_twice_is_a_no_op(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    units = read_units(str(path))
    analyze = api.analyze
    reports: list[Report] = []  # the analyses `api.rewrite` makes, reused: the first is of `units`

    def recorded(*args: Any, **kwargs: Any) -> Report:
        reports.append(analyze(*args, **kwargs))
        return reports[-1]

    monkeypatch.setattr(api, "analyze", recorded)
    rewrites = api.rewrite(units)
    monkeypatch.undo()
    if not any(r.applied for r in rewrites):
        # `api.rewrite` analysed the unchanged text and applied nothing: a second run is that same run.
        return
    fixed = [replace(r.unit, text=r.text) for r in rewrites]
    last = reports[-1]
    # `api.rewrite` stops after an analysis of its final text that applies nothing; else it ran out of rounds.
    left = last if [u.text for u in last.sources] == [u.text for u in fixed] else analyze(fixed)
    problems = _problems(units, fixed, [{f.rule for f in r.applied} for r in rewrites], left, lambda: reports[0])
    assert not problems, "\n".join(problems)
