"""Public check 66 (benchmarks/results/public_check66.md): a fact host-sync's GradScaler premise lacked.

p03 (a U-Net trainer) steps through a helper `train_fn(loader, model, optimizer, loss_fn, scaler)`
that `main()` calls with `scaler = GradScaler()`. On a GPU that scaler's `step` reads its inf/NaN
flags on the host every step, so the helper's `loop.set_postfix(loss=loss.item())` is a second,
shorter wait, not the step's only one. `_scaler_syncs` judged the scaler by the bindings of its name
in the helper only, found a parameter and gave up: the read was reported as the one that makes the GPU
idle, at high severity. Now a parameter holds what every seen call passes for it (followed in the
caller, a few calls deep); any call out of sight keeps the usual finding. The shape under
tests/fixtures/public_shapes/check66/ is own-written; the public copies are kept out of the repository."""
from __future__ import annotations

from pathlib import Path

from paef_jupyter.model import Severity
from public_findings import rule_findings, tagged_line

SHAPE = Path(__file__).resolve().parent / "fixtures" / "public_shapes" / "check66" / "scaler_passed_to_step_helper.py"
RULE = "host-sync"
SECOND_SYNC = "a second device sync in a step that already has one"
NEAR_MISSES = ("flagged", "mixed", "star", "fused", "cpu_scaler", "uncalled", "rebound")


def test_a_scaler_passed_to_the_step_helper_makes_its_read_a_second_sync() -> None:
    text = SHAPE.read_text()
    found = rule_findings(SHAPE, text, RULE)
    for tag in ("positional", "keyword", "two_deep"):
        finding = found[tagged_line(text, tag)]
        assert finding.severity is Severity.LOW and SECOND_SYNC in finding.message, tag
        assert "`scaler.step(optimizer)`" in finding.message, tag


def test_a_scaler_or_optimizer_not_proven_from_every_call_keeps_the_usual_finding() -> None:
    text = SHAPE.read_text()
    found = rule_findings(SHAPE, text, RULE)
    for tag in NEAR_MISSES:
        finding = found[tagged_line(text, tag)]
        assert finding.severity is Severity.HIGH and SECOND_SYNC not in finding.message, tag


def test_the_positional_helper_without_its_scaler_call_is_as_before() -> None:
    """The call is what proves the scaler: drop it and the helper's read is the usual finding."""
    text = SHAPE.read_text()
    variant = text.replace("        train_fn(data, model, optimizer, loss_fn, scaler)\n", "")
    assert variant != text
    finding = rule_findings(SHAPE, variant, RULE)[tagged_line(variant, "positional")]
    assert finding.severity is Severity.HIGH and SECOND_SYNC not in finding.message


def test_a_scaler_rebound_in_the_caller_to_a_disabled_one_keeps_the_usual_finding() -> None:
    """`scaler = GradScaler(enabled=False)` on one branch of the caller: not every value syncs."""
    text = SHAPE.read_text()
    variant = text.replace("    scaler = GradScaler()\n",
                           "    scaler = GradScaler()\n    if amp_flag:\n        scaler = GradScaler(enabled=False)\n")
    assert variant != text
    found = rule_findings(SHAPE, variant, RULE)
    for tag in ("positional", "two_deep"):
        finding = found[tagged_line(variant, tag)]
        assert finding.severity is Severity.HIGH and SECOND_SYNC not in finding.message, tag
    assert SECOND_SYNC in found[tagged_line(variant, "keyword")].message  # its own GradScaler() at the call


SUM_SHAPE = SHAPE.parent / "keypoint_helper_loss_sum.py"
NOT_TENSOR = "is not proven to be a tensor"
DTYPE = "`.double()` before summing keeps Python's float64 sum"


def test_a_device_sum_of_a_value_neither_proven_a_tensor_nor_typed_names_both_hazards() -> None:
    """p04: `epoch_train_loss += loss.item()` of a step helper's return, the criterion a parameter. The
    review note said only that `loss` may not be a tensor; the float32 sum it offers printed the epoch
    loss differently in the 8th digit, which the dropped dtype note predicts."""
    text = SUM_SHAPE.read_text()
    finding = rule_findings(SUM_SHAPE, text, RULE)[tagged_line(text, "helper_sum")]
    assert finding.fix is not None and finding.fix.needs_review and not finding.fixable
    assert NOT_TENSOR in finding.fix.review and DTYPE in finding.fix.review


def test_a_device_sum_of_a_proven_float_tensor_keeps_its_exact_rewrite() -> None:
    text = SUM_SHAPE.read_text()
    finding = rule_findings(SUM_SHAPE, text, RULE)[tagged_line(text, "inline_sum")]
    assert finding.fixable and finding.fix is not None and not finding.fix.review
    assert ".double()" in finding.fix.description


def test_a_helper_sum_whose_total_starts_unknown_names_that_and_the_tensor_hazard() -> None:
    """A total not proven to start as a Python number: that note, and still the tensor one."""
    text = SUM_SHAPE.read_text()
    variant = text.replace("        epoch_train_loss = 0\n", "        epoch_train_loss = start_value(epoch)\n")
    assert variant != text
    finding = rule_findings(SUM_SHAPE, variant, RULE)[tagged_line(variant, "helper_sum")]
    assert finding.fix is not None and not finding.fixable
    assert NOT_TENSOR in finding.fix.review and "not proven to start as a Python number" in finding.fix.review
