"""Public check 53: a training step that reads two device values one after the other
(`loss.mean().item()` then `(pred == y).sum().item()` into meters, p01; `logits.cpu()` for a
greedy decode then `loss.item()` for a NaN test, p03) was reported as two high, per-step waits.
The first read is where the host waits for the step; a read whose statement runs after it on
every path waits only for the work queued between the two, and is worded and ranked as a second
sync (low), naming the first. A read under a branch or in an inner loop does not run before
every later read, and a read in another loop is another step's: those keep their wording. The
shape is own-written; the public copies are kept out of the repository."""
from __future__ import annotations

from pathlib import Path

import pytest

from paef_jupyter.model import Severity
from public_findings import rule_findings, tagged_line

ROOT = Path(__file__).resolve().parents[1]
SHAPE = ROOT / "tests" / "fixtures" / "public_shapes" / "check53" / "step_reads.py"


def _found(tag: str):
    text = SHAPE.read_text()
    return rule_findings(SHAPE, text, "host-sync").get(tagged_line(text, tag))


@pytest.mark.parametrize(("later", "first", "code"), [
    ("second", "first", "`loss.mean().item()`"),
    ("nan-check", "decode", "`logits.cpu()`"),
])
def test_a_read_after_the_steps_first_read_is_a_second_sync(later: str, first: str, code: str) -> None:
    text = SHAPE.read_text()
    found = _found(later)
    assert found is not None and found.severity == Severity.LOW
    assert "a second device sync" in found.message
    assert f"{code} at line {tagged_line(text, first)}" in found.message


@pytest.mark.parametrize("tag", ["first", "decode"])
def test_the_first_read_of_a_step_stays_the_steps_wait(tag: str) -> None:
    found = _found(tag)
    assert found is not None and found.severity == Severity.HIGH
    assert "second device sync" not in found.message


@pytest.mark.parametrize("tag", ["after-branch", "after-inner", "loop-a", "loop-b"])
def test_reads_not_preceded_on_every_path_keep_their_wording(tag: str) -> None:
    found = _found(tag)
    assert found is not None and found.severity == Severity.HIGH
    assert "second device sync" not in found.message


def test_the_reported_lines_are_unchanged() -> None:
    text = SHAPE.read_text()
    lines = set(rule_findings(SHAPE, text, "host-sync"))
    assert {tagged_line(text, t) for t in ("first", "second", "decode", "nan-check", "after-branch",
                                           "after-inner", "loop-a", "loop-b")} <= lines
