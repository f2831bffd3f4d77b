"""Red-team programs read as the magic and `paef scan` read them (a notebook's code cells, one unit
each), and one rule's findings on them: what the red-team tests assert on."""

from __future__ import annotations

import json
from pathlib import Path

from paef_jupyter.api import analyze_source, analyze_units
from paef_jupyter.fix import apply_findings
from paef_jupyter.model import CellRef, SourceUnit

REDTEAM = Path(__file__).resolve().parents[1] / "benchmarks" / "redteam"


def program_units(path: Path) -> list[SourceUnit]:
    if path.suffix == ".ipynb":
        cells = json.loads(path.read_text())["cells"]
        return [SourceUnit(CellRef(path.name, i), "".join(c["source"])) for i, c in enumerate(cells)
                if c["cell_type"] == "code"]
    return [SourceUnit(CellRef(path.name, None), path.read_text())]


def path_units(path: Path) -> list[SourceUnit]:
    """A red-team program as it is scored, or a project's module on its own (as `paef fix mod.py`)."""
    if path.parent == REDTEAM:
        return program_units(path)
    return [SourceUnit(CellRef(str(path), None), path.read_text())]


def automatic_lines(path: Path, rule: str) -> set[tuple[int | None, int]]:
    """(cell, line) of every finding of `rule` whose fix a plain `paef fix` applies."""
    return {(f.ref.cell, f.line) for f in rule_findings(path_units(path), rule) if f.fixable}


def rule_findings(units: list[SourceUnit], rule: str) -> list:
    return list(analyze_units(units, rules=[rule]).findings)


def source_units(text: str) -> list[SourceUnit]:
    return [SourceUnit(CellRef("p.py", None), text)]


def automatic_fixes(found: list) -> list:
    """The findings a plain `paef fix` would apply (a refused or review-only one is not among them)."""
    return [f for f in found if f.fix is not None and f.fix.automatic]


def fixed_program(name: str, rule: str) -> str:
    """The red-team program `name` after `rule`'s automatic rewrites, every one of them applied."""
    text = (REDTEAM / name).read_text()
    report = analyze_source(text, CellRef(name), rules=[rule])
    after, _applied, skipped = apply_findings(text, report.findings)
    assert not skipped
    return after
