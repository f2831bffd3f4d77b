"""Public check 48: a device choice overwritten by the next line with the CPU (equilibrium
propagation), a forward inherited from an earlier cell's base class, and a training loop that must
win over an evaluation loop met first (the mixture-of-experts notebook)."""
from __future__ import annotations

from pathlib import Path

from paef_jupyter.api import analyze_path
from public_findings import write_notebook

ROOT = Path(__file__).resolve().parents[1]
# own-written shape of public check 48 p02 (the copy is kept out of the repository)
P02 = ROOT / "tests" / "fixtures" / "public_shapes" / "check48" / "experts_inherited_forward.ipynb"
# p04 (a CUDA choice overwritten by the CPU on the next line: no finding) is proved by the rule fixture
# tests/fixtures/rules/host-sync/neg_cuda_choice_replaced_by_the_cpu.py; its test on the copy is gone.

BASE = '''import torch
import torch.nn as nn


class Base(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(8, 4)

    def forward(self, inp):
        out = self.lin(inp)
        extra = torch.zeros(inp.size(0), 4)
        if inp.is_cuda:
            extra = extra.cuda()
        for i, j in enumerate(inp.argmax(1)):
            out[i] += j.item()
        return out + extra
'''
SUB = '''class Sub(Base):
    def describe(self):
        return "sub"
'''
TRAIN = '''device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = {cls}().to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    loss = model(torch.randn(16, 8, device=device)).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
'''
EVAL = '''model.eval()
with torch.no_grad():
    for step in range(3):
        print(model(torch.randn(16, 8, device=device)).argmax(1).sum().item())
'''


def _lines(path: Path, rule: str) -> set[tuple[int | None, int]]:
    report = analyze_path(str(path), rules=[rule])
    assert not report.errors
    return {(f.ref.cell, f.line) for f in report.findings}


def test_p02_inherited_forward_run_by_the_training_cell() -> None:
    found = _lines(P02, "host-sync") | _lines(P02, "cpu-then-move")
    assert {(1, 36), (1, 38)} <= found  # `out = out.cuda()`, `out[r.item()] += ...` in the base class's forward


def test_forward_of_an_earlier_cells_base_class(tmp_path: Path) -> None:
    path = write_notebook(tmp_path, BASE, SUB, TRAIN.format(cls="Sub"))
    assert _lines(path, "cpu-then-move") == {(0, 14)}
    assert _lines(path, "host-sync") == {(0, 16)}


def test_training_loop_wins_over_an_evaluation_loop_met_first(tmp_path: Path) -> None:
    path = write_notebook(tmp_path, BASE, SUB, TRAIN.format(cls="Sub"), EVAL)
    assert (0, 16) in _lines(path, "host-sync")


def test_near_miss_subclass_overrides_forward(tmp_path: Path) -> None:
    own = SUB + '''
    def forward(self, inp):
        return self.lin(inp)
'''
    path = write_notebook(tmp_path, BASE, own, TRAIN.format(cls="Sub"))
    assert _lines(path, "cpu-then-move") == set()
    assert _lines(path, "host-sync") == set()


def test_near_miss_base_not_a_class_of_the_notebook(tmp_path: Path) -> None:
    other = SUB.replace("class Sub(Base):", "class Sub(nn.Linear):\n    def __init__(self):\n        super().__init__(8, 4)\n")
    path = write_notebook(tmp_path, BASE, other, TRAIN.format(cls="Sub"))
    assert _lines(path, "cpu-then-move") == set()
    assert _lines(path, "host-sync") == set()


LATER_CPU = '''import torch
device = "cpu"
def train(model, loader, opt):
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss = torch.nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(loss.item())
'''
LATER_GPU = '''device = "cuda" if torch.cuda.is_available() else "cpu"
model = torch.nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
train(model, [(torch.randn(8, 4), torch.randn(8, 1))] * 3, opt)
'''


def test_near_miss_global_cpu_device_rebound_by_a_later_cell(tmp_path: Path) -> None:
    path = write_notebook(tmp_path, LATER_CPU, LATER_GPU)
    assert (0, 10) in _lines(path, "host-sync")
