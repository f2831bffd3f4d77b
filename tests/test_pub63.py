"""Public check 63 (benchmarks/results/public_check63.md): a fact eval-without-no-grad lacked.

p05 (a book's LSTM forecaster, three modules, CPU only) trains full-batch once per epoch and, after
the step, runs the model on the held-out windows: `val_prediction, _ = model(x_val); val_loss =
mse_loss(val_prediction, y_val)`, then reads `val_loss` only through `.item()`. The rule knew the
pass after `.eval()` (pygcn) and the pass under `if step % k == 0:` (MorvanZhou), not this one:
unguarded, so the loop's later statements see its values. Now it is reported (a hint: the wrap is
left to review) when every read of those values, in the unit and in the other cells, takes them
without their graph. The shape under tests/fixtures/public_shapes/check63/ is own-written; the
public copies are kept out of the repository."""
from __future__ import annotations

from pathlib import Path

from paef_jupyter.api import analyze_path
from public_findings import rule_findings, tagged_line, write_notebook

SHAPE = Path(__file__).resolve().parent / "fixtures" / "public_shapes" / "check63" / "forecaster_validation_per_epoch.py"
RULE = "eval-without-no-grad"


def test_the_validation_forward_after_the_step_is_reported_as_a_hint() -> None:
    text = SHAPE.read_text()
    found = rule_findings(SHAPE, text, RULE)
    assert set(found) == {tagged_line(text, "val")}
    finding = found[tagged_line(text, "val")]
    assert "held-out data" in finding.message and "`.item()`" in finding.message
    assert not finding.fixable


def test_values_kept_or_shown_with_their_graph_stay_silent() -> None:
    text = SHAPE.read_text()
    for old, new in (("validation_loss.append(val_loss.item())", "validation_loss.append(val_loss)"),
                     ("print(t, round(loss.item(), 4), round(val_loss.item(), 4))", "print(t, loss.item(), val_loss)"),
                     ("min_val_loss = val_loss.item()", "min_val_loss = val_loss"),
                     ("print(round(sum(predicted), 4), round(min_val_loss, 6))",
                      "print(round(sum(predicted), 4), round(min_val_loss, 6))\nval_prediction.sum().backward()")):
        variant = text.replace(old, new)
        assert variant != text, old
        assert rule_findings(SHAPE, variant, RULE) == {}, new


def test_the_pass_under_no_grad_or_on_the_training_tensors_stays_silent() -> None:
    """`model(x_train)` after the step measures the data the step trained on: not a held-out pass
    (left to the other routes), and the wrapped pass is what the hint asks for."""
    text = SHAPE.read_text()
    wrapped = text.replace("    val_prediction, _ = model(x_val)  # tag: val\n    val_loss = mse_loss(val_prediction, y_val)\n",
                           "    with torch.no_grad():\n        val_prediction, _ = model(x_val)  # tag: val\n"
                           "        val_loss = mse_loss(val_prediction, y_val)\n")
    own_batch = text.replace("val_prediction, _ = model(x_val)  # tag: val", "val_prediction, _ = model(x_train)  # tag: val")
    for variant in (wrapped, own_batch):
        assert variant != text
        assert rule_findings(SHAPE, variant, RULE) == {}


def test_a_later_cell_reading_the_values_decides(tmp_path: Path) -> None:
    """In a notebook the next cell may read what the loop left: as a number (reported), or with its
    graph (silent)."""
    text = SHAPE.read_text()
    head, tail = text.split("best_model.eval()\n")
    for later, reported in (("print(val_loss.item())", True), ("val_loss.backward()", False)):
        path = write_notebook(tmp_path, head, "best_model.eval()\n" + tail, later)
        rules = {(f.ref.cell, f.rule) for f in analyze_path(str(path)).findings}
        assert ((0, RULE) in rules) is reported, later
