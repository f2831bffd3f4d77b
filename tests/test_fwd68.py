"""A module's `forward` takes its parameters' kinds from the `model(...)` calls of its instances
(`nn.Module.__call__` hands the arguments to `forward`), as `obj.run(x)` types `run`: the per-row
loop of truth68's c06 (`for i in range(x.shape[0]): rows.append(h[i] * g[i])` in `forward`,
called as `model(X[i])`) is reported, in the same file, an earlier cell and a local module."""

from __future__ import annotations

from pathlib import Path

from paef_jupyter.api import analyze_path, analyze_source
from paef_jupyter.model import CellRef
from public_findings import write_notebook

FIXTURES = Path(__file__).parent / "fixtures"
CALLED = FIXTURES / "rules" / "elementwise-loop" / "pos_rows_in_forward_of_a_called_model.py"

MODEL = '''import torch
import torch.nn as nn
import torch.nn.functional as F


class Gated(nn.Module):
    def __init__(self, d=8, h=16):
        super().__init__()
        self.inp = nn.Linear(d, h)
        self.gate = nn.Linear(d, 1)
        self.out = nn.Linear(h, 3)

    def forward(self, x):
        h = F.relu(self.inp(x))
        g = torch.sigmoid(self.gate(x))
        rows = []
        for i in range(x.shape[0]):
            rows.append(h[i] * g[i])
        return self.out(torch.stack(rows))
'''
LOOP_LINE = 17

TRAIN = '''X, Y = torch.randn(4, 5, 8), torch.randint(0, 3, (4, 5))
model = Gated()
opt = torch.optim.SGD(model.parameters(), lr=0.05)
for epoch in range(2):
    for i in range(len(X)):
        loss = F.cross_entropy(model(X[i]), Y[i])
        opt.zero_grad()
        loss.backward()
        opt.step()
'''


def _rows(findings) -> set[tuple[str, int]]:
    return {(Path(f.ref.path).name if f.ref.path else "", f.line) for f in findings if f.rule == "elementwise-loop"}


def test_the_message_names_the_rows_read_not_the_range_tensor() -> None:
    report = analyze_source(CALLED.read_text(), CellRef(str(CALLED)), rules=["elementwise-loop"])
    (finding,) = report.findings
    assert "one row of `h` and `g`" in finding.message


def test_forward_of_a_model_defined_in_an_earlier_cell(tmp_path: Path) -> None:
    nb = write_notebook(tmp_path, MODEL, TRAIN)
    found = [f for f in analyze_path(str(nb)).findings if f.rule == "elementwise-loop"]
    assert [(f.ref.cell, f.line) for f in found] == [(0, LOOP_LINE)], found


def test_forward_of_a_model_in_a_local_module(tmp_path: Path) -> None:
    (tmp_path / "models.py").write_text(MODEL)
    script = tmp_path / "train.py"
    script.write_text("import torch\nimport torch.nn.functional as F\nfrom models import Gated\n\n" + TRAIN)
    assert _rows(analyze_path(str(script)).findings) == {("models.py", LOOP_LINE)}


def test_module_imported_by_attribute(tmp_path: Path) -> None:
    (tmp_path / "models.py").write_text(MODEL)
    script = tmp_path / "train.py"
    script.write_text("import torch\nimport torch.nn.functional as F\nimport models\n\n"
                      + TRAIN.replace("model = Gated()", "model = models.Gated()"))
    assert _rows(analyze_path(str(script)).findings) == {("models.py", LOOP_LINE)}


def test_a_call_with_a_list_in_an_earlier_cell_leaves_forward_untyped(tmp_path: Path) -> None:
    """One `model(...)` call passing a list beside the tensor calls: no one kind, no finding."""
    nb = write_notebook(tmp_path, MODEL, TRAIN + "model([[0.0] * 8])\n")
    assert [f for f in analyze_path(str(nb)).findings if f.rule == "elementwise-loop"] == []


def test_wrapped_model_was_a_known_miss_and_is_now_reported() -> None:
    """`nn.DataParallel(Gated())(x)` runs the wrapper's `forward`, which hands `Gated.forward` its
    argument (split along the batch): typed since recall 69 (`Facts._wrapped_module`), so the per-row
    loop pinned here as a known miss by fwd68 is reported."""
    path = FIXTURES / "fwd68" / "wrapped_model_known_miss.py"
    report = analyze_source(path.read_text(), CellRef(str(path)), rules=["elementwise-loop"])
    assert not report.errors and [f.line for f in report.findings] == [17]