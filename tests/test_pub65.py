"""Public check 65 (benchmarks/results/public_check65.md): a fact eval-without-no-grad and host-sync lacked.

p01 (a Kaggle tabular notebook) trains and validates in one loop over the phases of a dict of
loaders: `if e == 'train': model.train() else: model.eval()`, then one batch loop whose forward
serves both phases and whose `loss.backward()` runs only under `if e == 'train':`. The loop trains,
so the evaluation route never read it, and the validation phase's forward (with autograd on) went
unreported; host-sync called the validation branch's `loss.item()` a training step's. Now the phase
loop is read (`_phase_loop`): the shared forward is reported (report only: the same statement runs
the training phase), and a read in the `else:` of the training test is an evaluation read. The shape
under tests/fixtures/public_shapes/check65/ is own-written; the public copies are kept out of the
repository."""
from __future__ import annotations

from pathlib import Path

from public_findings import rule_findings, tagged_line

SHAPE = Path(__file__).resolve().parent / "fixtures" / "public_shapes" / "check65" / "phase_loop.py"
RULE = "eval-without-no-grad"
SILENT = ("guarded", "switch", "saliency", "other_test", "split")


def test_the_shared_forward_of_a_phase_loop_is_reported_without_a_rewrite() -> None:
    text = SHAPE.read_text()
    found = rule_findings(SHAPE, text, RULE)
    for tag in ("fit", "ternary"):
        finding = found[tagged_line(text, tag)]
        assert "set_grad_enabled" in finding.message and "eval mode" in finding.message
        assert finding.fix is not None and not finding.fix.edits  # report only


def test_phase_loops_that_already_choose_the_grad_mode_or_need_the_graph_stay_silent() -> None:
    text = SHAPE.read_text()
    found = rule_findings(SHAPE, text, RULE)
    assert set(found) == {tagged_line(text, "fit"), tagged_line(text, "ternary")}
    for tag in SILENT:
        assert tagged_line(text, tag) not in found, tag


def test_the_toggle_without_the_same_training_test_stays_silent() -> None:
    """The backward under `if e == "val":` (another test than the toggle's) is not the phase loop's."""
    text = SHAPE.read_text()
    variant = text.replace('                if e == "train":\n                    loss.backward()',
                           '                if e == "val":\n                    loss.backward()')
    assert variant != text
    assert tagged_line(variant, "fit") not in rule_findings(SHAPE, variant, RULE)


def test_a_read_in_the_validation_branch_is_an_evaluation_read() -> None:
    text = SHAPE.read_text()
    found = rule_findings(SHAPE, text, "host-sync")
    train_read = tagged_line(text, "fit") + 6  # `L.append(loss.item())` under `if e == "train":`
    val_read = train_read + 2  # `V.append(loss.item())` in the `else:`
    assert "training step" in found[train_read].message
    assert "evaluation" in found[val_read].message and "training step" not in found[val_read].message
