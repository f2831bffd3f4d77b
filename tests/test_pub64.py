"""Public check 64 (benchmarks/results/public_check64.md): a fact every grad-mode reading lacked.

p02 (a char-level GPT project) defines its evaluation helper inside `with torch.no_grad():` rather
than under `@torch.no_grad()`. The `with` turns autograd off while the `def` statement runs, not
while the function's body runs later; `grad_disabled` took every statement nested in the block,
function bodies included, for code run under `no_grad`, so the helper's evaluation loop (called
outside any `no_grad`) went unreported. Now a `with` around a `def` counts for the body only where
the function's name is used inside that `with` (called or handed on there); decorators, call
sites under `no_grad` and statements of the block itself count as before. The shape under
tests/fixtures/public_shapes/check64/ is own-written; the public copies are kept out of the repository."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from public_findings import rule_findings, tagged_line

SHAPE = Path(__file__).resolve().parent / "fixtures" / "public_shapes" / "check64" / "no_grad_around_def.py"
RULE = "eval-without-no-grad"
CALL = "print(get_loss(data, model))\n"


def _block(text: str) -> str:
    """The `with torch.no_grad():` block that defines `get_loss` (through its `return`)."""
    start = text.index("with torch.no_grad():\n    def get_loss")
    end = text.index("        return total / 20\n", start) + len("        return total / 20\n")
    return text[start:end]


def _without_last_call(text: str) -> str:
    head, tail = text.rsplit(CALL, 1)
    return head + tail


def test_a_helper_defined_inside_no_grad_and_called_outside_is_reported() -> None:
    text = SHAPE.read_text()
    found = rule_findings(SHAPE, text, RULE)
    assert tagged_line(text, "eval") in found
    assert found[tagged_line(text, "eval")].fix is not None


def test_inference_mode_around_the_def_is_read_the_same_way() -> None:
    text = SHAPE.read_text()
    variant = text.replace("with torch.no_grad():\n    def get_loss", "with torch.inference_mode():\n    def get_loss")
    assert variant != text
    assert tagged_line(variant, "eval") in rule_findings(SHAPE, variant, RULE)


def _decorated(text: str) -> str:
    block = _block(text)
    body = textwrap.dedent(block.split("\n", 1)[1])
    return text.replace(block, "@torch.no_grad()\n" + body)


def _called_inside_the_block(text: str) -> str:
    block = _block(text)
    return _without_last_call(text.replace(block, block + "    " + CALL))


def _call_site_under(ctx: str):
    return lambda text: _without_last_call(text) + f"with {ctx}:\n    {CALL}"


def _loop_in_the_block(text: str) -> str:
    block = _block(text)
    direct = ("with torch.no_grad():\n    model.eval()\n    total = 0\n    for _ in range(20):  # tag: eval\n"
              "        x, y = get_batch(data)\n        loss = F.cross_entropy(model(x), y)\n"
              "        total += loss.item()\n")
    return _without_last_call(text.replace(block, "")) + direct + "print(total / 20)\n"


NEAR_MISSES = {
    "decorator": _decorated,
    "called inside the same with": _called_inside_the_block,
    "call site under no_grad": _call_site_under("torch.no_grad()"),
    "call site under inference_mode": _call_site_under("torch.inference_mode()"),
    "call site under set_grad_enabled(False)": _call_site_under("torch.set_grad_enabled(False)"),
    "the loop itself in the with": _loop_in_the_block,
}


@pytest.mark.parametrize("make", list(NEAR_MISSES.values()), ids=list(NEAR_MISSES))
def test_helpers_that_do_run_under_no_grad_stay_silent(make) -> None:
    text = SHAPE.read_text()
    variant = make(text)
    assert variant != text
    compile(variant, str(SHAPE), "exec")
    assert tagged_line(variant, "eval") not in rule_findings(SHAPE, variant, RULE)
