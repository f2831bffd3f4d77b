"""`paef fix` is stable: once it has run, running it again changes nothing.

A rewrite's output must read as fixed. For every rule fixture output, every demo and a
deterministic sample of the corpus, the automatic fixes are applied the way `paef fix` applies
them (`api.rewrite`), the result is analysed again, and
- no automatic fix is left that a second `paef fix` would apply;
- no rule that rewrote a line reports a finding (of any severity) on a line it wrote: a rule
  that flags its own output would keep offering a change the user has already made.
"""

from __future__ import annotations

import difflib
import os
from dataclasses import replace
from pathlib import Path

import pytest

from benchmarks import score_corpus as sc
from paef_jupyter import api
from paef_jupyter.fix import apply_findings
from paef_jupyter.model import Finding
from paef_jupyter.units import read_units
from tests.rule_fixtures import pairs

ROOT = Path(__file__).resolve().parents[1]
FIXTURE_OUTPUTS = [out for _, out in pairs()]
DEMOS = sorted((ROOT / "demo_notebooks").glob("*.ipynb")) + sorted((ROOT / "demo_notebooks").glob("*.py"))


def _corpus_files() -> list[Path]:
    """Every file of every corpus program, or with PAEF_IDEMPOTENT_SAMPLE (the default, for CI
    time) the programs that have something to fix: `clean_*` programs are labelled as having
    nothing, so a fix there is already a failure of test_corpus/test_clean_programs."""
    programs = sc.discover()
    if os.environ.get("PAEF_IDEMPOTENT_FULL") != "1":
        programs = [p for p in programs if not p.name.startswith("clean_")]
    return [f for p in programs for f in sc.program_files(p)]


CASES = FIXTURE_OUTPUTS + DEMOS + _corpus_files()


def _written_lines(old: str, new: str) -> set[int]:
    """1-based lines of `new` that the rewrite inserted or changed."""
    matcher = difflib.SequenceMatcher(a=old.splitlines(), b=new.splitlines(), autojunk=False)
    return {j + 1 for tag, _, _, j1, j2 in matcher.get_opcodes() if tag != "equal" for j in range(j1, j2)}


def _on(finding: Finding, lines: set[int]) -> bool:
    return any(finding.line <= n <= max(finding.end_line, finding.line) for n in lines)


@pytest.mark.parametrize("path", CASES, ids=lambda p: str(p.relative_to(ROOT)))
def test_fix_twice_is_a_no_op(path: Path) -> None:
    rewrites = api.rewrite(read_units(str(path)))
    if not any(r.applied for r in rewrites):
        # `api.rewrite` analysed the unchanged text and applied nothing: a second run is that same run.
        return
    fixed = [replace(r.unit, text=r.text) for r in rewrites]
    left = api.analyze(fixed)
    problems: list[str] = []
    for rw, unit in zip(rewrites, fixed):
        mine = [f for f in left.top(len(left.findings)) if f.ref.key == unit.ref.key]
        again, done, _ = apply_findings(unit.text, mine)
        if done or again != unit.text:
            problems += [f"a second fix applies {f.rule} at line {f.line}: {f.message[:120]}" for f in done]
        writers = {f.rule for f in rw.applied}
        written = _written_lines(rw.unit.text, rw.text)
        problems += [
            f"{f.rule} reports its own rewrite at line {f.line} (cell {f.ref.cell}): {f.message[:120]}"
            for f in mine
            if f.rule in writers and _on(f, written)
        ]
    assert not problems, "\n".join(problems)
