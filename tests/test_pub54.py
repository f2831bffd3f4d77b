"""Public check 54 (benchmarks/results/public_check54.md): two facts eval-without-no-grad lacked.

p01 (an SRCNN script): the inference function's network came from a module the analysis could not
resolve, under a name that spells no model word (`srcnn`), so its loop was not known to run a model;
`srcnn.eval()` before the call says it is one (`switched_to_eval`). p03 (a U-Net trainer): the
validation function's bare `torch.no_grad()` statement turns nothing off; the finding now names it.
The shapes under tests/fixtures/public_shapes/check54/ are own-written; the public copies are kept
out of the repository."""
from __future__ import annotations

from pathlib import Path

import pytest

from paef_jupyter.model import Severity
from public_findings import rule_findings, tagged_line

SHAPES = Path(__file__).resolve().parent / "fixtures" / "public_shapes" / "check54"
RULE = "eval-without-no-grad"


def test_inference_loop_of_a_network_switched_to_eval_by_its_own_name_is_reported() -> None:
    path = SHAPES / "sr_inference.py"
    text = path.read_text()
    found = rule_findings(path, text, RULE)
    assert set(found) == {tagged_line(text, "inference")}
    finding = found[tagged_line(text, "inference")]
    assert finding.message.startswith("this evaluation loop") and finding.severity == Severity.MEDIUM
    # the wrap is offered for review: `save_grid` is code of another module the analysis cannot read
    assert finding.fix is not None and finding.fix.needs_review and not finding.fixable


@pytest.mark.parametrize("switch", [
    "",  # without the eval call the unresolved network stays unknown
    "    srcnn.eval(\"mode\")\n",  # `eval` with an argument is not a module's switch
])
def test_without_a_plain_eval_call_the_unresolved_network_stays_unknown(switch: str) -> None:
    path = SHAPES / "sr_inference.py"
    text = path.read_text()
    other = text.replace("    srcnn.eval()\n    loader = DataLoader", switch + "    loader = DataLoader")
    assert other != text
    assert rule_findings(path, other, RULE) == {}


def test_a_bare_no_grad_statement_is_named_in_the_finding() -> None:
    path = SHAPES / "unet_val_dropped_no_grad.py"
    text = path.read_text()
    found = rule_findings(path, text, RULE)
    dropped = found[tagged_line(text, "validation")]
    assert f"the bare `torch.no_grad()` at line {tagged_line(text, 'dropped')}" in dropped.message
    assert "only `with torch.no_grad():` turns it off" in dropped.message
    plain = found[tagged_line(text, "unmarked")]  # the same loop without the bare statement: the usual message
    assert "bare" not in plain.message
    assert dropped.message.startswith(plain.message)


def test_set_grad_enabled_false_is_not_a_dropped_switch() -> None:
    path = SHAPES / "unet_val_dropped_no_grad.py"
    text = path.read_text()
    switched = text.replace("    torch.no_grad()  # tag: dropped", "    torch.set_grad_enabled(False)  # tag: dropped")
    assert switched != text
    found = rule_findings(path, switched, RULE)
    assert all("bare" not in f.message for f in found.values())
