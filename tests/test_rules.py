"""Every rule against its fixtures: findings where marked, none on look-alikes, and
automatic rewrites that give the expected text and keep the program's results."""

from __future__ import annotations

from pathlib import Path

import pytest

from paef_jupyter.api import analyze_source
from paef_jupyter.fix import apply_findings
from paef_jupyter.model import CellRef
from paef_jupyter.static.rules import RULES
from rule_fixtures import (
    assert_same,
    marked_lines,
    marked_rules,
    negatives,
    pairs,
    positives,
    refusals,
    review_pairs,
    rule_dirs,
    run_fixture,
)


def _ids(paths: list[Path]) -> list[str]:
    return [f"{p.parent.name}/{p.name}" for p in paths]


def test_every_rule_has_its_fixtures() -> None:
    for directory in rule_dirs():
        assert directory.name in RULES, f"fixtures for unknown rule {directory.name}"
    for rule in RULES:
        folder = Path(__file__).parent / "fixtures" / "rules" / rule
        assert len(list(folder.glob("pos_*.py"))) + len(list(folder.glob("*.in.py"))) >= 5, rule
        assert len(list(folder.glob("neg_*.py"))) >= 3, rule


@pytest.mark.parametrize("path", positives(), ids=_ids(positives()))
def test_positive(path: Path) -> None:
    rule = path.parent.name
    text = path.read_text()
    assert marked_lines(text, rule), f"{path.name} marks no line with `# <-- {rule}`"
    for checked in marked_rules(text, rule):  # one program for the rules that read the same fact
        report = analyze_source(text, CellRef(str(path)), rules=[checked])
        assert not report.errors
        assert {f.line for f in report.findings} == marked_lines(text, checked), checked
        for f in report.findings:
            assert f.message and f.explanation


@pytest.mark.parametrize("path", negatives(), ids=_ids(negatives()))
def test_negative(path: Path) -> None:
    rule = path.parent.name
    report = analyze_source(path.read_text(), CellRef(str(path)), rules=[rule])
    assert not report.errors
    assert [(f.line, f.message) for f in report.findings] == []


@pytest.mark.parametrize("path", refusals(), ids=_ids(refusals()))
def test_refused_rewrite(path: Path) -> None:
    rule = path.parent.name
    text = path.read_text()
    report = analyze_source(text, CellRef(str(path)), rules=[rule])
    assert not report.errors
    assert {f.line for f in report.findings} >= marked_lines(text, rule)
    assert [f.line for f in report.findings if f.fixable] == [], "a rewrite it must refuse is offered as safe"


@pytest.mark.parametrize("pair", pairs(), ids=_ids([p for p, _ in pairs()]))
def test_rewrite(pair: tuple[Path, Path]) -> None:
    before_path, after_path = pair
    rule = before_path.parent.name
    before = before_path.read_text()
    report = analyze_source(before, CellRef(str(before_path)), rules=[rule])
    assert any(f.fixable for f in report.findings), "no automatic fix offered"
    after, applied, skipped = apply_findings(before, report.findings)
    assert not skipped
    assert after == after_path.read_text()
    assert_same(run_fixture(before, str(before_path)), run_fixture(after, str(after_path)))
    # the rewrite is stable: the fixed code no longer has an automatic fix for this rule
    again = analyze_source(after, CellRef(str(after_path)), rules=[rule])
    assert not any(f.fixable for f in again.findings)


@pytest.mark.parametrize("pair", review_pairs(), ids=_ids([p for p, _ in review_pairs()]))
def test_review_rewrite(pair: tuple[Path, Path]) -> None:
    """A rewrite offered for review: never applied by default, gives `.out.py` with `--unsafe`, stable."""
    before_path, after_path = pair
    rule = before_path.parent.name
    before = before_path.read_text()
    report = analyze_source(before, CellRef(str(before_path)), rules=[rule])
    assert {f.line for f in report.findings} == marked_lines(before, rule)
    assert not any(f.fixable for f in report.findings)
    assert any(f.fix is not None and f.fix.needs_review for f in report.findings)
    after, applied, skipped = apply_findings(before, report.findings, unsafe=True)
    assert applied and not skipped
    assert after == after_path.read_text()
    again = analyze_source(after, CellRef(str(after_path)), rules=[rule])
    assert not any(f.fix is not None and f.fix.edits for f in again.findings)


FUSION_REVIEWS = [p for p in review_pairs() if p[0].parent.name == "operator-fusion"]


@pytest.mark.parametrize("pair", FUSION_REVIEWS, ids=_ids([p for p, _ in FUSION_REVIEWS]))
def test_fused_op_for_review_agrees_up_to_rounding(pair: tuple[Path, Path]) -> None:
    """A fused op offered for review computes the same function: the results agree to rounding
    (the bits differ, which is why it is not applied by default)."""
    before_path, after_path = pair
    assert_same(run_fixture(before_path.read_text(), str(before_path)), run_fixture(after_path.read_text(), str(after_path)))
