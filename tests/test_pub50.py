"""Public check 50: a warm-up arm that trains and leaves with `continue`, followed by the
semi-supervised step that trains too (its reads are training-step reads, not an evaluation
pass), a mask moved with `.cuda(non_blocking=True)` from a loader out of sight (a tensor: only
`Tensor.cuda` takes `non_blocking`) whose `.any()` is read in an `if` every step, and a mean
teacher updated through `state_dict()` blends loaded back every step (the mean-teacher change
detector, p03). The shape is own-written; the public copy is kept out of the repository."""
from __future__ import annotations

from pathlib import Path

from public_findings import rule_findings, tagged_line

ROOT = Path(__file__).resolve().parents[1]
SHAPE = ROOT / "tests" / "fixtures" / "public_shapes" / "check50" / "mean_teacher_semi.py"


def _findings(text: str, rule: str) -> dict[int, bool]:
    return {line: f.fixable for line, f in rule_findings(SHAPE, text, rule).items()}


def test_any_of_a_mask_moved_with_non_blocking_is_read_every_step_in_both_modes() -> None:
    text = SHAPE.read_text()
    found = _findings(text, "host-sync")
    for tag in ("any-warm", "any-semi", "any-unlabelled"):
        assert tagged_line(text, tag) in found, tag
        assert not found[tagged_line(text, tag)], f"{tag}: the mask is needed on the device too: no automatic rewrite"


def test_reads_after_the_warm_up_arm_are_reads_of_the_training_step() -> None:
    text = SHAPE.read_text()
    found = _findings(text, "host-sync")
    assert tagged_line(text, "item-warm") in found
    assert tagged_line(text, "item-semi") in found


def test_the_state_dict_blend_loaded_back_is_a_hint() -> None:
    text = SHAPE.read_text()
    found = _findings(text, "operator-fusion")
    assert found == {tagged_line(text, "blend"): False}


def test_near_misses_stay_silent() -> None:
    text = SHAPE.read_text()
    # after the warm-up arm, a step that only evaluates: it runs where the arm is not taken
    evaluating = text.replace("            loss.backward()\n            optimizer.step()\n            with torch.no_grad():\n"
                              "                blend_teacher(net, ema_net, alpha=0.99)\n", "")
    assert evaluating != text
    found = _findings(evaluating, "host-sync")
    assert tagged_line(evaluating, "item-semi") not in found and tagged_line(evaluating, "any-semi") not in found
    # a mask moved with a plain `.cuda()` from a loader out of sight: not known to be a tensor
    plain = text.replace("labelled = labelled.cuda(non_blocking=True)", "labelled = labelled.cuda()")
    found = _findings(plain, "host-sync")
    assert not {tagged_line(plain, t) for t in ("any-warm", "any-semi", "any-unlabelled")} & set(found)
    # the blend run once, after training (no per-update cost)
    once = text.replace("                blend_teacher(net, ema_net, alpha=0.99)\n", "                pass\n") \
        + "blend_teacher(model, teacher, 0.5)\n"
    assert _findings(once, "operator-fusion") == {}


def test_a_read_after_a_branch_that_already_waits_says_it_is_the_second_wait() -> None:
    text = SHAPE.read_text()
    by_line = rule_findings(SHAPE, text, "host-sync")
    semi = by_line[tagged_line(text, "item-semi")]
    assert "a second device sync in a step that already has one" in semi.message
    assert f"at line {tagged_line(text, 'any-unlabelled')}, a branch on a device value every step" in semi.message
    assert semi.severity.value == "low"
    warm = by_line[tagged_line(text, "item-warm")]
    assert f"at line {tagged_line(text, 'any-warm')}, a branch on a device value every step" in warm.message
    # near miss: no device branch in the step (the mask not known as a tensor): the first wait, high
    plain = text.replace("labelled = labelled.cuda(non_blocking=True)", "labelled = labelled.cuda()")
    semi = rule_findings(SHAPE, plain, "host-sync")[tagged_line(plain, "item-semi")]
    assert "second device sync" not in semi.message and semi.severity.value == "high"
