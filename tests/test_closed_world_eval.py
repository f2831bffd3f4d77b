"""eval-without-no-grad's closed-world gate (session 54, `static/rules/_graph_uses.py`): the
automatic wrap is kept only where every use of what the loop computes with the model is proved
to read the same with and without autograd; any other use leaves the wrap to review, named."""

from __future__ import annotations

from pathlib import Path

import pytest

from paef_jupyter.api import analyze_source
from paef_jupyter.model import CellRef
from paef_jupyter.static.rules.eval_without_no_grad import EvalWithoutNoGrad

RULE = "eval-without-no-grad"
ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "rules" / RULE
PROBES = sorted((ROOT / "benchmarks" / "redteam").glob("rtcwe_*.py"))


def _findings(path: Path, ref: CellRef | None = None, text: str | None = None) -> dict[int, object]:
    report = analyze_source(text if text is not None else path.read_text(), ref or CellRef(str(path)), rules=[RULE])
    return {f.line: f for f in report.findings}


def _no_gate(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(EvalWithoutNoGrad, "_unproved_use", lambda self, loop: "")


REFUSED = FIXTURES / "refuse_closed_world_unproved_uses.py"
# loop line -> the start of the review the gate gives (other checks name lines 40 and 49 first)
GATE_REASONS = {
    24: "line 27 hands it to `report(...)`, which the analysis cannot prove ignores autograd",
    33: "line 18 hands it to `self.seen.append(...)`",
    56: "line 57 stores it in `store[i]`",
    63: "line 66 calls `model[2].bias.add_(0.01)`",  # the model's parameter changed in place
}


def test_each_unproved_use_leaves_the_wrap_to_review_with_its_line():
    found = _findings(REFUSED)
    assert set(found) == {24, 33, 40, 49, 56, 63}
    assert not any(f.fixable for f in found.values())
    for line, reason in GATE_REASONS.items():
        assert found[line].fix.review.startswith(reason), found[line].fix.review


def test_the_gate_is_what_refuses_them(monkeypatch):
    _no_gate(monkeypatch)
    found = _findings(REFUSED)
    assert all(found[line].fixable for line in GATE_REASONS)  # without the gate: wrapped, and not proved


def test_the_gate_alone_covers_the_sinks_earlier_waves_listed(monkeypatch):
    """The open-world sink check (`_shown_with_graph`) switched off: the gate still refuses the
    printed list and the return to an unseen caller."""
    monkeypatch.setattr(EvalWithoutNoGrad, "_shown_with_graph", lambda self, loop: "")
    found = _findings(REFUSED)
    assert not found[40].fixable and found[40].fix.review.startswith("line 42 hands it to `print(...)`")
    assert not found[49].fixable and "returns it from `returned_to_unseen_caller` to callers" in found[49].fix.review


def test_proved_idioms_stay_automatic():
    found = _findings(FIXTURES / "closed_world_proved_uses.in.py")
    assert len(found) == 6 and all(f.fixable for f in found.values())


CELL = """import torch
model = torch.nn.Linear(3, 2)
model.eval()
outs = []
for x in torch.randn(4, 5, 3):
    out = model(x)
    outs.append(out.argmax(1))
{last}
"""


def test_a_cells_last_expression_is_shown():
    ref = CellRef("nb.ipynb", cell=0)
    shown = _findings(Path("nb.ipynb"), ref, CELL.format(last="out"))[5]
    assert not shown.fixable and "the cell's last expression" in shown.fix.review
    assert _findings(Path("nb.ipynb"), ref, CELL.format(last="out.sum().item()"))[5].fixable  # a number
    assert _findings(Path("nb.ipynb"), ref, CELL.format(last="outs"))[5].fixable  # integer indices only
    # the same line in a script is a value dropped
    assert _findings(Path("s.py"), CellRef("s.py"), CELL.format(last="out"))[5].fixable


@pytest.mark.parametrize("probe", PROBES, ids=lambda p: p.name)
def test_red_team_cwe_probes_are_left_to_review(probe):
    found = _findings(probe)
    assert found and not any(f.fixable for f in found.values())
