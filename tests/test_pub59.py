"""Public check 59 (benchmarks/results/public_check59.md): a fact graph-retention lacked.

p03 (an ESPCN super-resolution script) trains with `loss` every step, and every 20 epochs binds
the same name again, `loss = 0.0`, then in a validation loop under `torch.no_grad()`, and appends
it to a history for a plot. graph-retention took the name for the back-propagated training loss
(the epoch loop calls `loss.backward()`) and reported "chains every step's autograd graph": the
value appended was computed with autograd off and carries none. The fact: which bindings of the
name can reach the read, and whether each of them carries a graph. The shape under
tests/fixtures/public_shapes/check59/ is own-written; the public copies are kept out of the
repository."""
from __future__ import annotations

from pathlib import Path

from public_findings import rule_findings, tagged_line

SHAPES = Path(__file__).resolve().parent / "fixtures" / "public_shapes" / "check59"


def test_a_validation_loss_bound_under_no_grad_is_not_a_kept_graph() -> None:
    path = SHAPES / "periodic_validation_loss.py"
    text = path.read_text()
    assert rule_findings(path, text, "graph-retention") == {}


def test_the_training_loss_reaching_the_history_is_still_reported() -> None:
    """The same program without the `loss = 0.0` before the validation loop: a validation set
    with no batch leaves the training step's loss (with its graph) in `loss`; and with the
    validation's `no_grad` removed the validation loss itself carries a graph."""
    path = SHAPES / "periodic_validation_loss.py"
    text = path.read_text()
    unprimed = text.replace("        loss = 0.0\n", "")
    assert unprimed != text
    assert set(rule_findings(path, unprimed, "graph-retention")) == {tagged_line(unprimed, "validation")}
    with_grad = text.replace("        with torch.no_grad():\n            for lr_img, hr_img in val:\n"
                             "                loss = mse(",
                             "        if True:\n            for lr_img, hr_img in val:\n"
                             "                loss = mse(")
    assert with_grad != text
    assert set(rule_findings(path, with_grad, "graph-retention")) == {tagged_line(with_grad, "validation")}


def test_the_training_step_loss_appended_every_step_is_still_reported() -> None:
    """The rebinding is after the keeping in the program order: the step's loss is kept."""
    path = SHAPES / "periodic_validation_loss.py"
    text = path.read_text()
    every_step = text.replace("        running += loss.item()\n",
                              "        running += loss.item()\n        history.append(loss)  # tag: step\n")
    assert every_step != text
    assert set(rule_findings(path, every_step, "graph-retention")) == {tagged_line(every_step, "step")}
