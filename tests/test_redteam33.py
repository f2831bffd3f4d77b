"""Red team 33 (blind, against session 54's closed-world gates) found two automatic `no_grad`
wraps that changed output, both through entries of the gate's own closed list: `.numpy()` (it
raises on a tensor that requires grad, so a `try` around it takes another branch under no_grad)
and a learnable tensor outside the model (`prototypes[pred]` carries a graph only with autograd
on). Both wraps are now left to review."""

from __future__ import annotations

from pathlib import Path

import pytest

from paef_jupyter.api import analyze_units
from paef_jupyter.model import CellRef, SourceUnit

REDTEAM = Path(__file__).resolve().parents[1] / "benchmarks" / "redteam"


def _wraps(source: str) -> list:
    units = [SourceUnit(CellRef("p.py", None), source)]
    return [f for f in analyze_units(units, rules=["eval-without-no-grad"]).findings]


@pytest.mark.parametrize("program", ["rt33_ev_numpy_guard.py", "rt33_ev_prototype_index.py"])
def test_red_team_33_wraps_are_left_for_review(program: str) -> None:
    found = _wraps((REDTEAM / program).read_text())
    assert found and not any(f.fixable for f in found)
    assert all(f.fix is not None and f.fix.review for f in found)


LOOP = '''import torch
from torch import nn
model = nn.Linear(3, 2)
{extra}
opt = torch.optim.SGD({params}, lr=0.1)
model.eval()
for x in [torch.randn(4, 3)]:
    pred = model(x).argmax(1)
    {use}
'''


@pytest.mark.parametrize("extra,params,use", [
    ("prototypes = torch.zeros(2, 3, requires_grad=True)", "list(model.parameters()) + [prototypes]", "print(prototypes[pred])"),
    ("prototypes = nn.Parameter(torch.zeros(2, 3))", "list(model.parameters()) + [prototypes]", "print(prototypes[pred])"),
    ("prototypes = torch.zeros(2, 3)\nprototypes.requires_grad_()", "model.parameters()", "print(prototypes[pred])"),
    ("centers = torch.zeros(2, 3)", "[{'params': model.parameters()}, {'params': [centers]}]", "print(centers[pred] * 2)"),
    ("", "model.parameters()", "print(model(x).numpy())"),
])
def test_a_graph_reached_outside_the_model_or_through_numpy_is_not_proved(extra: str, params: str, use: str) -> None:
    (finding,) = _wraps(LOOP.format(extra=extra, params=params, use=use))
    assert not finding.fixable


@pytest.mark.parametrize("extra,use", [
    ("prototypes = torch.zeros(2, 3)", "print(prototypes[pred])"),  # a plain tensor: no graph either way
    ("", "print(pred.tolist())"),
])
def test_tensors_that_never_require_grad_stay_automatic(extra: str, use: str) -> None:
    (finding,) = _wraps(LOOP.format(extra=extra, params="model.parameters()", use=use))
    assert finding.fixable
