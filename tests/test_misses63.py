"""misses63: recall on what public checks 51-52 still missed, by category.

- redundant-tensor: copies of one tensor joined on every step (`torch.cat(n * [x], dim=0)` where `x`
  has size 1 there, `torch.stack` of `n` copies), which `expand` gives as a view: a hint, never a
  rewrite; silent where the result is written in place, `.view`ed, handed on, or `x` is not provably
  of size 1 along the joined dimension.
- host-sync: a read in a training step after a call to a helper that already waits for the device
  on every call (a boolean-mask read, `.item()`) is a low "second device sync", as for waits
  spelled in the step itself; reads whose step waits only under a branch, or later, stay high.
"""
from __future__ import annotations

from pathlib import Path

from public_findings import rule_findings, tagged_line

from paef_jupyter.model import Severity

ROOT = Path(__file__).resolve().parents[1]
SHAPE = ROOT / "tests" / "fixtures" / "public_shapes" / "misses63" / "helper_waits.py"
RT = ROOT / "tests" / "fixtures" / "rules" / "redundant-tensor"


def test_reads_after_a_helper_that_waits_are_a_second_sync() -> None:
    text = SHAPE.read_text()
    found = rule_findings(SHAPE, text, "host-sync")
    for tag, helper in (("second-mask", "run"), ("second-nested", "forward` (through `run"), ("second-item", "hits")):
        finding = found[tagged_line(text, tag)]
        assert finding.severity is Severity.LOW, tag
        assert "second device sync" in finding.message and f"inside `{helper}`" in finding.message, tag


def test_the_helpers_own_wait_is_still_reported_high() -> None:
    text = SHAPE.read_text()
    found = rule_findings(SHAPE, text, "host-sync")
    assert found[tagged_line(text, "mask")].severity is Severity.HIGH


def test_reads_whose_step_does_not_wait_before_them_stay_high() -> None:
    text = SHAPE.read_text()
    found = rule_findings(SHAPE, text, "host-sync")
    for tag in ("first-store", "first-branch-in-helper", "first-after", "first-branch-in-step", "first-method-by-name"):
        finding = found[tagged_line(text, tag)]
        assert finding.severity is Severity.HIGH, tag
        assert "second device sync" not in finding.message, tag


def test_repeated_copies_are_hints_with_a_view_suggestion() -> None:
    path = RT / "pos_repeated_copies_per_step.py"
    text = path.read_text()
    found = rule_findings(path, text, "redundant-tensor")
    lines = {i for i, line in enumerate(text.splitlines(), 1) if "# <-- redundant-tensor" in line}
    assert lines and lines <= set(found)
    for line in lines:
        fix = found[line].fix
        assert fix is not None and not fix.automatic and ".expand(" in (fix.suggestion or "")
    suggestion = found[min(lines)].fix.suggestion  # `torch.cat(n * [self.W], dim=0)`
    assert suggestion == "self.W.expand(n, *self.W.shape[1:])"


def test_the_suggested_views_hold_the_joined_values() -> None:
    import torch

    w = torch.randn(1, 3, 4)
    n = 5
    assert torch.equal(torch.cat(n * [w], dim=0), w.expand(n, *w.shape[1:]))
    v = torch.randn(3, 1, 4)
    assert torch.equal(torch.cat([v] * n, dim=1), v.expand(*v.shape[:1], n, *v.shape[2:]))
    assert torch.equal(torch.stack([v for _ in range(n)], 1), v.unsqueeze(1).expand(*v.shape[:1], n, *v.shape[1:]))


def test_a_join_of_an_input_of_unknown_size_is_silent() -> None:
    text = ("import torch\nimport torch.nn as nn\n\n"
            "class M(nn.Module):\n    def forward(self, x):\n        n = x.size(0)\n"
            "        y = torch.cat(n * [x], dim=0)\n        return y.sum()\n\n"
            "m = M()\nopt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1)\n"
            "for i in range(3):\n    loss = m(torch.randn(2, 3))\n    opt.zero_grad()\n    loss.backward()\n    opt.step()\n")
    assert not rule_findings(RT / "inline.py", text, "redundant-tensor")


EV = ROOT / "tests" / "fixtures" / "rules" / "eval-without-no-grad"


def test_an_accuracy_pass_over_module_level_trained_weights_is_reported_for_review() -> None:
    path = EV / "refuse_functional_accuracy_over_module_weights.py"
    text = path.read_text()
    found = rule_findings(path, text, "eval-without-no-grad")
    line = next(i for i, l in enumerate(text.splitlines(), 1) if "# <-- eval-without-no-grad" in l)
    assert set(found) == {line}
    fix = found[line].fix
    assert fix is not None and not fix.automatic
    assert "module-level names (`w1`, `w2`)" in fix.review


def test_the_check51_shape_accuracy_helper_is_found() -> None:
    shape = ROOT / "tests" / "fixtures" / "public_shapes" / "check51" / "snn_time_steps.py"
    text = shape.read_text()
    found = rule_findings(shape, text, "eval-without-no-grad")
    loop = next(i for i, l in enumerate(text.splitlines(), 1) if l.strip() == "for x, y in batches(2):")
    assert loop in found and not found[loop].fix.automatic


def test_weights_that_need_no_grad_or_no_optimizer_are_no_functional_model() -> None:
    path = EV / "neg_functional_accuracy_near_misses.py"
    assert not rule_findings(path, path.read_text(), "eval-without-no-grad")


def test_a_helper_defined_in_an_earlier_cell_counts(tmp_path: Path) -> None:
    from public_findings import write_notebook

    from paef_jupyter.api import analyze_path

    src = SHAPE.read_text()
    head, rest = src.split("opt = torch.optim.Adam", 1)
    step = "opt = torch.optim.Adam" + rest.split("\nfor step in range(4):")[0] + "\nfor step in range(4):" \
        + rest.split("\nfor step in range(4):")[1]
    path = write_notebook(tmp_path, head, step)
    found = {(f.ref.cell, f.line): f for f in analyze_path(str(path), rules=["host-sync"]).findings}
    read = found[(1, tagged_line(step, "second-mask"))]
    assert read.severity is Severity.LOW and "inside `run`" in read.message
