"""Recall 60: two facts cpu-then-move lacked for public checks' still-missed labels.

- a `torch.distributions` object built from host tensors draws on the host (public check 48, p03 line
  156: `noise.sample((n,)).to(device)` with the distribution handed in by the caller);
- arithmetic keeps a host tensor of at least one dimension on the host whatever the other operand
  (public check 48, p02 lines 30-32: `torch.range(0, b - 1) * m + k` then `.cuda()`);
- an earlier cell's class built in the `__init__` of a class the loop runs (`self.gate = Gate(...)`)
  runs its `forward` per batch, as every class's does in one file (the same p02: the gate's helper);
- a sigmoid written over a fresh ones tensor or with a negated sum in the exponent (public check 47,
  p05 lines 48/59/62: `torch.ones(s) / (1 + torch.exp(-a - b))`).
Every new finding is a hint: no edits, never automatic. The public programs are kept out of the
repository (the project does not copy code from other projects): each fact is tested on fixtures
and cells written here in the same shapes."""
from __future__ import annotations

from pathlib import Path

from paef_jupyter.api import analyze_path
from public_findings import write_notebook

ROOT = Path(__file__).resolve().parents[1]
FIX = ROOT / "tests" / "fixtures" / "rules" / "cpu-then-move"


def _moves(path: Path) -> dict[int, object]:
    return {f.line: f for f in analyze_path(str(path), rules=["cpu-then-move"]).findings}


def _hint(finding: object) -> bool:
    fix = finding.fix  # type: ignore[attr-defined]
    return fix is not None and not fix.automatic and not fix.edits


def test_distribution_fixture_fires_on_both_shapes() -> None:
    found = _moves(FIX / "pos_host_distribution_draw_moved.py")
    assert set(found) == {17, 28} and all(_hint(f) for f in found.values())


def test_distribution_near_misses_silent() -> None:
    assert _moves(FIX / "neg_host_distribution_draw_near_misses.py") == {}


GATE = '''import torch
import torch.nn as nn


def gate_positions(values, k):
    batch = values.size(0)
    m = values.size(1)
    where = torch.range(start=0, end=batch - 1) * m + k
    if values.is_cuda:
        where = where.cuda()
    return torch.index_select(values.view(-1), 0, where.long())


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
net = nn.Linear(4, 4).to(device)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for step in range(3):
    out = net(torch.randn(2 + step, 4, device=device))
    loss = gate_positions(out, 1).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
'''


def test_range_times_a_parameter_then_moved(tmp_path: Path) -> None:
    path = tmp_path / "gate.py"
    path.write_text(GATE)
    found = _moves(path)
    assert set(found) == {10} and _hint(found[10])


def test_range_given_the_device_is_silent(tmp_path: Path) -> None:
    path = tmp_path / "gate.py"
    path.write_text(GATE.replace("end=batch - 1)", "end=batch - 1, device=values.device)"))
    assert _moves(path) == {}


def test_one_size_factory_under_arithmetic_is_silent(tmp_path: Path) -> None:
    """`torch.zeros(n)` may be 0-d (`n` a shape): a 0-d host tensor plus a device tensor is a device tensor."""
    path = tmp_path / "gate.py"
    path.write_text(GATE.replace("torch.range(start=0, end=batch - 1)", "torch.zeros(batch)"))
    assert _moves(path) == {}


def test_range_fixture_fires_on_three_shapes() -> None:
    found = _moves(FIX / "pos_host_range_arithmetic_moved.py")
    assert set(found) == {19, 24, 26, 27} and all(_hint(f) for f in found.values())


def test_range_near_misses_silent() -> None:
    assert _moves(FIX / "neg_host_range_arithmetic_near_misses.py") == {}


MODULES = '''import torch
import torch.nn as nn


def ramp(x, k):
    pos = torch.arange(x.size(0)) * k
    if x.is_cuda:
        pos = pos.cuda()
    return x + pos[:, None]


class Scorer(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.lin = nn.Linear(d, d)

    def forward(self, x):
        return ramp(self.lin(x), 2)


class Net(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.scorer = Scorer(d)

    def forward(self, x):
        return self.scorer(x).sum(1)
'''
TRAIN = '''device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
net = Net(4).to(device)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for step in range(3):
    loss = net(torch.randn(2 + step, 4, device=device)).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
'''


def test_submodule_of_an_earlier_cells_class_runs_per_batch(tmp_path: Path) -> None:
    path = write_notebook(tmp_path, MODULES, TRAIN)
    found = {(f.ref.cell, f.line) for f in analyze_path(str(path), rules=["cpu-then-move"]).findings}
    assert found == {(0, 8)}


def test_submodule_built_by_a_class_the_loop_never_runs_is_silent(tmp_path: Path) -> None:
    """`Net` is defined but the training cell builds a plain `nn.Linear`: `Scorer` runs nowhere."""
    path = write_notebook(tmp_path, MODULES, TRAIN.replace("net = Net(4).to(device)", "net = nn.Linear(4, 1).to(device)"))
    assert analyze_path(str(path), rules=["cpu-then-move"]).findings == ()


def test_submodule_name_rebound_in_its_cell_is_silent(tmp_path: Path) -> None:
    """The cell rebinds `Scorer` to a function after the class: which object `__init__` builds is not the class."""
    cells = MODULES + "\n\ndef Scorer(d):\n    return nn.Linear(d, d)\n"
    path = write_notebook(tmp_path, cells, TRAIN)
    assert analyze_path(str(path), rules=["cpu-then-move"]).findings == ()


def test_literal_one_over_one_negated_term_keeps_its_automatic_rewrite(tmp_path: Path) -> None:
    """The old shape (`1 / (1 + exp(-x))`) is unchanged: the new hint does not take it."""
    path = tmp_path / "s.py"
    path.write_text("import torch\nx = torch.randn(3)\nfor i in range(2):\n    y = 1 / (1 + torch.exp(-x))\n")
    found = analyze_path(str(path), rules=["operator-fusion"]).findings
    assert len(found) == 1 and found[0].fix is not None and found[0].fix.edits
