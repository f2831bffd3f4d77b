"""Every rule survives rare ways to write a program: the rule fixtures, reshaped (see
`reshapes.py`), are analysed with all rules and no rule fails on them. An `elif` whose test reads a
tensor crashed four rules' statement walks (a statement's parent there is an `If`, not a block)."""

from __future__ import annotations

from pathlib import Path

import pytest

from paef_jupyter.api import analyze_source
from paef_jupyter.fix import apply_findings
from paef_jupyter.model import CellRef
from reshapes import SHAPES, reshape
from rule_fixtures import FIXTURES, assert_same, run_fixture

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


# Every eighth rewrite pair's program (data-parallel ones left out: they need ranks).
_PAIRS = [p for p in sorted(FIXTURES.glob("*/*.in.py"))
          if not p.name.startswith("review_") and "init_process_group" not in p.read_text()][::8]


@pytest.mark.parametrize("shape", ["annotated", "walrus", "elif", "match"])
def test_automatic_rewrites_of_reshaped_programs_keep_their_result(shape: str) -> None:
    """A reshaped program computes what the original did, so paef's automatic rewrites of it must
    too (an annotated accumulator grown in place was hoisted by redundant-tensor on 0a16905)."""
    for path in _PAIRS:
        text = reshape(path.read_text(), shape)
        if text is None:
            continue
        report = analyze_source(text, CellRef(str(path)))
        after, _, _ = apply_findings(text, report.findings)
        if after == text:
            continue
        compile(after, str(path), "exec")
        assert_same(run_fixture(text, str(path)), run_fixture(after, str(path)), f"{path.parent.name}/{path.name} ({shape})")


def _findings(text: str, path: Path) -> list[tuple[str, int | None, bool]]:
    report = analyze_source(text, CellRef(str(path)))
    return sorted((f.rule, f.line, f.fixable) for f in report.findings)


# Fixtures whose annotated copy still loses a finding, and why. jedi answers from an annotation,
# not from the value (`state: object = {...}`, then `for k, v in state.items()` in a comprehension:
# `v` is whatever `object.items()` yields). Losing a finding is the safe direction; an annotation
# must never add one or make one automatic, which the test checks for these too.
_ANNOTATION_LOSES = {
    "pageable-transfer/neg_batch_comprehension_near_misses.py": "a comprehension target, asked of jedi",
    "elementwise-loop/pos_counting.py":
        "`data: object = [(x, y) ...]` handed to `evaluate(model, data)`: its loop's elements, asked of jedi",
}


def test_an_annotation_changes_no_finding() -> None:
    """`x: object = v` binds as `x = v` does (it keeps every line where it was), so the findings,
    and which are automatic, are the same. On c0424f5 446 of the 1586 fixtures differed, and
    red-team programs given annotations had `no_grad` wrapped around code whose results were
    back-propagated (`static/annotated.py`)."""
    differ = []
    for path in _SAMPLE:
        text = path.read_text()
        shaped = reshape(text, "annotated")
        if shaped is None:
            continue
        annotated, plain = _findings(shaped, path), _findings(text, path)
        name = f"{path.parent.name}/{path.name}"
        if annotated != plain and not (name in _ANNOTATION_LOSES and set(annotated) < set(plain)):
            differ.append(name)
    assert not differ, differ
