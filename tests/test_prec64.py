"""prec64 (issue 8, precision on findings an expert would call debatable): a training step's
later device read is a second sync of the step (low, naming the first) when the first read sits
in a compound statement that ran to its end on every path to the later one - a `with` body
(`torch.autocast`), or every arm of an `if` / `elif` / `else` (public check 37 p02's mixup gate,
which reads each arm's loss, then the hit count). Before, only an earlier read in a plain
statement of a block around the later one counted, so these later reads were reported high, as
the step's only wait. Near misses keep the later read high: an `if` without `else`, an `elif`
chain without `else`, a read in one arm only, a read in a `for` inside a `with` (it may run no
round), a read in a `try` body. The shapes are own-written."""
from __future__ import annotations

from pathlib import Path

import pytest

from paef_jupyter.model import Severity
from public_findings import rule_findings, tagged_line

ROOT = Path(__file__).resolve().parents[1]
SHAPE = ROOT / "tests" / "fixtures" / "public_shapes" / "prec64" / "reads_in_arms.py"
MIXUP = ROOT / "tests" / "fixtures" / "public_shapes" / "check37" / "mixup_gate_amp.py"
FIXTURE = ROOT / "tests" / "fixtures" / "rules" / "host-sync" / "pos_later_read_after_a_read_in_every_arm.py"


def _found(tag: str):
    text = SHAPE.read_text()
    return rule_findings(SHAPE, text, "host-sync").get(tagged_line(text, tag))


@pytest.mark.parametrize(("later", "first"), [
    ("after-arms", "arm-a"),
    ("after-chain", "chain-a"),
    ("after-with", "in-with"),
])
def test_a_read_after_a_compound_statement_that_read_on_every_path_is_a_second_sync(later: str, first: str) -> None:
    text = SHAPE.read_text()
    found = _found(later)
    assert found is not None and found.severity == Severity.LOW
    assert "a second device sync" in found.message
    assert f"at line {tagged_line(text, first)}" in found.message


@pytest.mark.parametrize("tag", ["arm-a", "arm-b", "chain-a", "chain-b", "chain-c", "in-with"])
def test_the_reads_inside_the_arms_stay_the_steps_wait(tag: str) -> None:
    found = _found(tag)
    assert found is not None and found.severity == Severity.HIGH
    assert "second device sync" not in found.message


@pytest.mark.parametrize("tag", ["after-no-else", "after-open-chain", "after-one-arm", "after-loop-in-with", "after-try"])
def test_a_compound_statement_that_may_skip_its_read_leaves_the_later_read_the_steps_wait(tag: str) -> None:
    found = _found(tag)
    assert found is not None and found.severity == Severity.HIGH
    assert "second device sync" not in found.message


def test_public_check_37_mixup_gate_hit_count_is_a_second_sync() -> None:
    text = MIXUP.read_text()
    found = rule_findings(MIXUP, text, "host-sync")
    assert found[39].severity == Severity.HIGH and found[43].severity == Severity.HIGH
    assert found[50].severity == Severity.LOW and "`loss.mean().item()` at line 39" in found[50].message


def test_the_rule_fixture_reports_every_read_with_the_later_ones_low() -> None:
    text = FIXTURE.read_text()
    found = rule_findings(FIXTURE, text, "host-sync")
    marked = {i for i, line in enumerate(text.splitlines(), 1) if "# <-- host-sync" in line}
    assert set(found) == marked
    assert {line for line, f in found.items() if f.severity == Severity.LOW} == {34, 49}


@pytest.mark.parametrize(("later", "first"), [("gen-after-const", "critic-const"), ("gen-after-lit", "critic-lit")])
def test_a_read_after_an_inner_loop_that_runs_a_round_is_a_second_sync(later: str, first: str) -> None:
    """Public check 54 p02 (WGAN-GP): the critic's reads, in `for _ in range(CRITIC_STEPS)` with a
    positive constant, have waited before the generator's read of the same step."""
    text = SHAPE.read_text()
    found = _found(later)
    assert found is not None and found.severity == Severity.LOW
    assert f"`c_loss.item()` at line {tagged_line(text, first)}" in found.message


@pytest.mark.parametrize("tag", ["gen-after-param", "gen-after-skip", "critic-const", "critic-lit", "critic-param"])
def test_an_inner_loop_that_may_skip_its_read_leaves_the_later_read_the_steps_wait(tag: str) -> None:
    found = _found(tag)
    assert found is not None and found.severity == Severity.HIGH
    assert "second device sync" not in found.message


def test_no_finding_is_added_or_removed_by_the_wording() -> None:
    """The change ranks and words reads; it reports the same lines (every tagged read)."""
    text = SHAPE.read_text()
    tags = [line.split("# tag: ")[1].strip() for line in text.splitlines() if "# tag: " in line]
    reported = set(rule_findings(SHAPE, text, "host-sync"))
    silent = {"only-if", "open-a", "open-b", "one-arm", "in-try"}  # under a branch / `try`: not every step
    assert {tagged_line(text, t) for t in tags if t not in silent} <= reported
