"""Public check 55 (benchmarks/results/public_check55.md): the frequency cpu-then-move states.

p04 (an LSTM sentiment notebook): `init_hidden` builds zeros on the host and moves them, and it is
called once per epoch beside the batch loop (and once per validation pass). The finding said "on
every iteration" at medium severity; it runs once per epoch: low, and said so. The automatic
rewrite (`device=`) is unchanged. A helper called in a batch loop anywhere stays per iteration.
The shapes under tests/fixtures/public_shapes/check55/ are own-written; the public copies are
kept out of the repository."""
from __future__ import annotations

from pathlib import Path

import pytest

from paef_jupyter.model import Severity
from public_findings import rule_findings, tagged_line

SHAPES = Path(__file__).resolve().parent / "fixtures" / "public_shapes" / "check55"
RULE = "cpu-then-move"
SHAPE = SHAPES / "lstm_hidden_per_epoch.py"


def _lines(text: str) -> set[int]:
    return {tagged_line(text, "h0"), tagged_line(text, "c0")}


def test_hidden_state_built_once_per_epoch_is_low_and_says_so() -> None:
    text = SHAPE.read_text()
    found = rule_findings(SHAPE, text, RULE)
    assert set(found) == _lines(text)
    for finding in found.values():
        assert "once per epoch" in finding.message and "every iteration" not in finding.message
        assert finding.severity == Severity.LOW
        assert finding.fixable  # `torch.zeros(..., device=device)`: exact, still applied


@pytest.mark.parametrize("old, new", [
    # the state rebuilt for every batch instead of detached: once per iteration
    ("        state = tuple(s.data for s in state)\n", "        state = model.init_state(4)\n"),
    # one more call, in the validation batch loop: the helper runs per batch there
    ("            out, val_state = model(xb.to(device), val_state)\n",
     "            out, val_state = model(xb.to(device), model.init_state(4))\n"),
])
def test_a_helper_also_called_per_batch_stays_every_iteration(old: str, new: str) -> None:
    text = SHAPE.read_text()
    other = text.replace(old, new)
    assert other != text
    found = rule_findings(SHAPE, other, RULE)
    assert set(found) == _lines(other)
    for finding in found.values():
        assert "on every iteration" in finding.message and finding.severity == Severity.MEDIUM


def test_zeros_moved_in_the_epoch_loop_beside_its_batch_loop_is_once_per_epoch() -> None:
    text = SHAPE.read_text()
    other = text.replace("    state = model.init_state(4)\n",
                         "    state = (torch.zeros((2, 4, 8)).to(device), torch.zeros((2, 4, 8)).to(device))  # tag: inline\n")
    assert other != text
    found = rule_findings(SHAPE, other, RULE)
    inline = found[tagged_line(other, "inline")]
    assert "once per epoch" in inline.message and inline.severity == Severity.LOW


def test_a_loop_without_a_batch_loop_inside_stays_every_iteration() -> None:
    """`for step in range(n):` that is itself the training loop: the move runs per step."""
    text = SHAPE.read_text()
    other = text.replace("    for xb, yb in loader:\n        xb, yb = xb.to(device), yb.to(device)\n"
                         "        state = tuple(s.data for s in state)\n",
                         "    if True:\n        xb, yb = x[:4].to(device), y[:4].to(device)\n"
                         "        state = tuple(s.data for s in state)\n", 1)
    assert other != text
    found = rule_findings(SHAPE, other, RULE)
    assert set(found) == _lines(other)
    for finding in found.values():
        assert "on every iteration" in finding.message and finding.severity == Severity.MEDIUM
