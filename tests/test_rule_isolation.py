"""One rule's bug costs its own findings on that unit, never the report: the other rules' findings
stay, and the failure is one line among the report's errors, with the rule and the line."""

from __future__ import annotations

import libcst as cst
import pytest

from paef_jupyter.api import analyze_source
from paef_jupyter.model import CellRef
from paef_jupyter.static.rules.host_sync import HostSync

PROGRAM = """\
import torch
import torch.nn as nn

device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(4, 2).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = [(torch.randn(8, 4), torch.randn(8, 2)) for _ in range(4)]
total = 0.0
for x, y in data:
    x, y = x.to(device), y.to(device)
    loss = ((model(x) - y) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    total += loss.item()
    scale = torch.tensor([2.0]).to(device)
"""


def _rules(report) -> set[str]:
    return {f.rule for f in report.findings}


def test_a_failing_rule_loses_its_findings_and_says_where(monkeypatch: pytest.MonkeyPatch) -> None:
    clean = analyze_source(PROGRAM, CellRef("train.py"))
    assert not clean.errors and {"host-sync", "redundant-tensor"} <= _rules(clean)

    def broken(self: HostSync, node: cst.Call) -> None:
        if self.facts.code(node) == "loss.item()":
            raise TypeError("a bug")

    monkeypatch.setattr(HostSync, "visit_Call", broken)
    report = analyze_source(PROGRAM, CellRef("train.py"))
    assert "host-sync" not in _rules(report)
    assert _rules(report) == _rules(clean) - {"host-sync"}
    [error] = report.errors
    assert error.line == 15 and "host-sync" in error.message and "TypeError: a bug" in error.message
    assert "\n" not in error.message


def test_a_rule_failing_on_every_node_is_stopped_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []

    def broken(self: HostSync, node: cst.Call) -> None:
        calls.append(self.facts.code(node))
        raise ValueError("always")

    monkeypatch.setattr(HostSync, "visit_Call", broken)
    report = analyze_source(PROGRAM, CellRef("train.py"))
    assert len(calls) == 1 and len(report.errors) == 1
    assert "redundant-tensor" in _rules(report)
