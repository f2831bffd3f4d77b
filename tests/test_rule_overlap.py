"""One finding per site: rules whose shapes overlap leave a site to exactly one of them."""

from __future__ import annotations

from pathlib import Path

import pytest

from paef_jupyter.api import analyze_source
from paef_jupyter.model import CellRef
from rule_fixtures import FIXTURES

# (owner, the rule that stays silent where the owner reports)
_OVERLAPS = [("redundant-tensor", "cpu-then-move")]
_FILES = sorted({p for owner, other in _OVERLAPS for rule in (owner, other) for p in (FIXTURES / rule).glob("*.py")
                 if not p.name.endswith(".out.py")})


@pytest.mark.parametrize("path", _FILES, ids=[f"{p.parent.name}/{p.name}" for p in _FILES])
def test_one_finding_per_site(path: Path) -> None:
    for owner, other in _OVERLAPS:
        report = analyze_source(path.read_text(), CellRef(str(path)), rules=[owner, other])
        lines = {rule: {f.line for f in report.findings if f.rule == rule} for rule in (owner, other)}
        assert not lines[owner] & lines[other], f"{owner} and {other} both report lines {lines[owner] & lines[other]}"
