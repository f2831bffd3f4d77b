"""Every rule survives rare ways to write a program: the rule fixtures, reshaped (see
`reshapes.py`), are analysed with all rules and no rule fails on them. An `elif` whose test reads a
tensor crashed four rules' statement walks (a statement's parent there is an `If`, not a block)."""

from __future__ import annotations

from pathlib import Path

import pytest

from paef_jupyter.api import analyze_source
from paef_jupyter.model import CellRef
from reshapes import SHAPES, reshape
from rule_fixtures import FIXTURES

# Every 24th fixture (by name), so that each rule's folder is sampled and the test stays short.
_SAMPLE = [p for p in sorted(FIXTURES.glob("*/*.py")) if not p.name.endswith(".out.py")][::24]


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_no_rule_fails_on_reshaped_fixtures(shape: str) -> None:
    failures = []
    for path in _SAMPLE:
        text = reshape(path.read_text(), shape)
        if text is None:
            continue
        report = analyze_source(text, CellRef(str(path)))
        failures += [f"{path.parent.name}/{path.name}:{e.line}: {e.message}" for e in report.errors]
    assert not failures, "\n".join(failures[:10])
