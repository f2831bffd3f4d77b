"""A parsed unit's facts read the masked text it was parsed from as the module's code: the
analysis passes that text instead of generating it again, so the two must be the same."""

from __future__ import annotations

from pathlib import Path

import pytest

from paef_jupyter.model import CellRef, SourceUnit
from paef_jupyter.static.unit import parse_unit

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = sorted([*ROOT.glob("tests/fixtures/rules/**/*.py"), *ROOT.glob("benchmarks/redteam/*.py")])[::8]
SHAPES = ["x: int = 1\n", "(y := 2)\n", "%time z = 3\n!ls\nw = 4\n", "a = 1\r\nb: 'T' = a\r\n", "pass"]


@pytest.mark.parametrize("text", [p.read_text() for p in PROGRAMS] + SHAPES)
def test_facts_text_is_the_modules_code(text: str) -> None:
    parsed = parse_unit(SourceUnit(CellRef(path="cell.py"), text))
    assert parsed.module is not None
    assert parsed.module.code == parsed.masked.text


def test_the_facts_are_given_that_text() -> None:
    parsed = parse_unit(SourceUnit(CellRef(path="cell.py"), "%time z: int = 3\n"))
    assert parsed.loops.text is parsed.masked.text
