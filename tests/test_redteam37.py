"""Red team 37 (blind) met 7 automatic rewrites on first contact, none harmful. Reading the diffs found
one that is only harmless because its loop runs under `torch.no_grad()`: list-to-tensor rewrote
`margins.append(float(logits[:, 0] - logits[:, 2]))` as `margins.append(logits[:, 0] - logits[:, 2].detach())`.
The `.detach()` written after a cast's operand binds to the operand's last term, so where autograd
records, the joined tensor requires grad (the probe `rt37p_l2t_cast_of_difference`: print shows
`grad_fn`, `.numpy()` raises).

The category: a cast (`float` / `int` / `bool`) of an operand that a method written after it does not
take whole (an operator, a comparison, a conditional expression). Those joins are left as hints naming
the reason; names, calls, subscripts, attributes and parenthesised operands stay automatic.
"""

from __future__ import annotations

import pytest
from redteam_units import REDTEAM, automatic_fixes, program_units, rule_findings, source_units


def test_probe_casts_of_expressions_are_not_rewritten() -> None:
    found = rule_findings(program_units(REDTEAM / "rt37p_l2t_cast_of_difference.py"), "list-to-tensor")
    assert len(found) == 2 and not automatic_fixes(found)
    assert all("cast's operand is an expression" in f.fix.description for f in found)


def test_blind_program_keeps_the_rewrites_of_whole_operands() -> None:
    found = rule_findings(program_units(REDTEAM / "rt37_l2t_single_sample_scores.py"), "list-to-tensor")
    assert sorted(f.line for f in automatic_fixes(found)) == [21, 23]
    assert [f.line for f in found if f not in automatic_fixes(found)] == [24]


PROGRAM = """import torch
clf = torch.nn.Linear(5, 3)
data = torch.randn(6, 5)
vals = []
for i in range(data.shape[0]):
    logits = clf(data[i : i + 1])
    margin = logits[0, 0] - logits[0, 2]
    vals.append({value})
result = torch.tensor(vals)
"""

REFUSED = [
    "float(logits[0, 0] - logits[0, 2])",
    "float(-logits.min())",
    "float(logits.max() * 2)",
    "int(logits.argmax() == 1)",
    "bool(logits.sum() > 0)",
]

AUTOMATIC = [
    "float(margin)",
    "float(logits.max())",
    "float(logits[0, 1])",
    "float((logits[0, 0] - logits[0, 2]))",
    "(logits[0, 0] - logits[0, 2]).item()",
    "margin.item()",
]


@pytest.mark.parametrize("value", REFUSED)
def test_cast_of_an_expression_is_a_hint(value: str) -> None:
    found = rule_findings(source_units(PROGRAM.format(value=value)), "list-to-tensor")
    assert found and not automatic_fixes(found)


@pytest.mark.parametrize("value", AUTOMATIC)
def test_whole_operands_stay_automatic(value: str) -> None:
    found = rule_findings(source_units(PROGRAM.format(value=value)), "list-to-tensor")
    assert automatic_fixes(found)
