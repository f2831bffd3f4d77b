"""`paef fix` is stable: once it has run, running it again changes nothing.

A rewrite's output must read as fixed. For every demo and every corpus program (checked in the
pass that rewrites the corpus for test_rewrite_safety), the automatic fixes are applied the way
`paef fix` applies them (`api.rewrite`); every
rule fixture's `.out.py` is its `.in.py` so fixed. The result is analysed again, and
- no automatic fix is left that a second `paef fix` would apply;
- no rule reports a new finding (of any severity) on a line its own rewrite wrote: a concern
  the analysis had before the fix (one the fix left alone) may stay, but a rule that flags the
  code it wrote would keep asking for a change the user has already made.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from corpus_rewrites import CorpusRewrite, corpus_programs
from fix_stability import problems, rewrite_and_recheck
from paef_jupyter import api
from paef_jupyter.model import CellRef, SourceUnit
from paef_jupyter.units import read_units
from tests.rule_fixtures import pairs

ROOT = Path(__file__).resolve().parents[1]
DEMOS = sorted((ROOT / "demo_notebooks").glob("*.ipynb")) + sorted((ROOT / "demo_notebooks").glob("*.py"))
CORPUS = ROOT / "benchmarks" / "corpus"


@pytest.mark.parametrize("pair", pairs(), ids=lambda p: f"{p[0].parent.name}/{p[0].name}")
def test_fixture_output_is_left_alone_by_a_second_fix(pair: tuple[Path, Path]) -> None:
    """`.out.py` is what the fixes of the fixture's rule made of `.in.py` (test_rules checks that)."""
    source, out = pair
    rule = {source.parent.name}
    unit = SourceUnit(CellRef(str(source)), source.read_text())
    fixed = [replace(unit, text=out.read_text())]
    found = problems([unit], fixed, [rule], api.analyze(fixed), lambda: api.analyze([unit]), rules=rule)
    assert not found, "\n".join(found)


@pytest.mark.parametrize("path", DEMOS, ids=lambda p: str(p.relative_to(ROOT)))
def test_fix_twice_is_a_no_op(path: Path) -> None:
    _, found = rewrite_and_recheck(read_units(str(path)))
    assert not found, "\n".join(found)


@pytest.mark.timeout(1800)  # the first case's set-up may rewrite and run the whole corpus
@pytest.mark.parametrize("program", corpus_programs(CORPUS), ids=lambda p: p.name)
def test_fix_twice_is_a_no_op_on_every_corpus_program(program: Path, corpus_rewrites: dict[str, CorpusRewrite]) -> None:
    """Each file of the program, checked in the pass that rewrites it for test_rewrite_safety."""
    found = corpus_rewrites[program.name].unstable
    assert not found, "\n".join(found)
