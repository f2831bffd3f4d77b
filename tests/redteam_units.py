"""Red-team programs read as the magic and `paef scan` read them (a notebook's code cells, one unit
each), and one rule's findings on them: what the red-team tests assert on."""

from __future__ import annotations

import json
from pathlib import Path

from paef_jupyter.api import analyze_units
from paef_jupyter.model import CellRef, SourceUnit

REDTEAM = Path(__file__).resolve().parents[1] / "benchmarks" / "redteam"


def program_units(path: Path) -> list[SourceUnit]:
    if path.suffix == ".ipynb":
        cells = json.loads(path.read_text())["cells"]
        return [SourceUnit(CellRef(path.name, i), "".join(c["source"])) for i, c in enumerate(cells)
                if c["cell_type"] == "code"]
    return [SourceUnit(CellRef(path.name, None), path.read_text())]


def rule_findings(units: list[SourceUnit], rule: str) -> list:
    return list(analyze_units(units, rules=[rule]).findings)


def source_units(text: str) -> list[SourceUnit]:
    return [SourceUnit(CellRef("p.py", None), text)]
