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


# --- host-sync: a helper's read after the step's own read is the step's second wait ---------------

ACC = SHAPES / "acc_helper_after_loss_read.py"
SYNC = "host-sync"


def test_a_helper_read_after_the_steps_loss_read_is_a_second_wait() -> None:
    text = ACC.read_text()
    found = rule_findings(ACC, text, SYNC)
    assert set(found) == {tagged_line(text, "helper"), tagged_line(text, "loss")}
    helper, loss = found[tagged_line(text, "helper")], found[tagged_line(text, "loss")]
    assert "a second device sync in a step that already has one (`loss.item()`" in helper.message
    assert "before it calls `accuracy`" in helper.message and helper.severity == Severity.LOW
    assert loss.severity == Severity.HIGH and "second" not in loss.message


@pytest.mark.parametrize("old, new", [
    # the helper runs before the loss is read: its read is the step's first wait
    ("        losses.append(loss.item())  # tag: loss\n        correct += accuracy(out, yb)\n",
     "        correct += accuracy(out, yb)\n        losses.append(loss.item())  # tag: loss\n"),
    # the loss read is on some steps only
    ("        losses.append(loss.item())  # tag: loss\n",
     "        if epoch % 2 == 0:\n            losses.append(loss.item())  # tag: loss\n"),
    # the helper is also called under a branch of the same step: not every call follows the read
    ("        opt.step()\n", "        if epoch > 0:\n            correct += accuracy(out, yb)\n        opt.step()\n"),
    # the earlier `.item()` reads a host tensor: no wait
    ("        losses.append(loss.item())  # tag: loss\n",
     "        losses.append(torch.tensor(1.0).item())  # tag: loss\n"),
])
def test_without_an_earlier_read_on_every_path_the_helper_read_stays_the_steps_wait(old: str, new: str) -> None:
    text = ACC.read_text()
    other = text.replace(old, new)
    assert other != text
    found = rule_findings(ACC, other, SYNC)
    helper = found[tagged_line(other, "helper")]
    assert "second device sync" not in helper.message and helper.severity == Severity.HIGH


def test_a_read_under_a_branch_of_the_helper_is_not_named_second() -> None:
    """The guard: a read the helper makes on some calls only is left to the plain wording."""
    text = ACC.read_text()
    other = text.replace("    return torch.sum(pred == label.squeeze()).item()  # tag: helper\n",
                         "    if label.numel():\n        return torch.sum(pred == label.squeeze()).item()  # tag: helper\n"
                         "    return 0\n")
    assert other != text
    found = rule_findings(ACC, other, SYNC)
    helper = found.get(tagged_line(other, "helper"))
    assert helper is None or "second device sync" not in helper.message
