"""truth15: a program's own modules are profiled like its cells. Public projects keep their model
and helpers in `model.py`, `utils.py`, `gcn.py`: public GCN (pub31 p01) rebuilds its normalised
adjacency in NumPy inside `gcn.py`'s `forward` (86% of the unprofiled run), and `paef profile
cora.py` reported it on the calling loop of `cora.py` (lines 24-31), while `paef scan` found
`gcn.py`'s eval loop and the profile did not list it at all.

Real profiles on this CPU build (`profile_path`, what `paef profile` runs).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from dynamic_helpers import run_from

from paef_jupyter.api import analyze_path, profile_path
from paef_jupyter.model import Severity

MAIN = """import numpy as np
import torch
{import_line}

A = (np.random.default_rng(0).random((300, 300)) < 0.02).astype(np.float64)
w = torch.randn(300, 8, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
for epoch in range(12):
    a_hat = normalise(A)
    loss = (a_hat @ w).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""

HELPER = """import numpy as np
import torch


def normalise(matrix):
    mat_tilde = np.identity(matrix.shape[0]) + matrix
    d = np.diag(1 / np.sum(mat_tilde, axis=1))
    a_hat = np.matmul(np.matmul(np.sqrt(d), mat_tilde), np.sqrt(d))
    return torch.FloatTensor(a_hat)
"""


pytestmark = pytest.mark.usefixtures("one_torch_thread")


def _program(tmp_path: Path, module_dir: str, import_line: str) -> Path:
    (tmp_path / module_dir).mkdir(parents=True, exist_ok=True)
    (tmp_path / module_dir / "prep.py").write_text(HELPER)
    main = tmp_path / "train.py"
    main.write_text(MAIN.format(import_line=import_line))
    return main


def test_the_cost_inside_a_local_module_is_found_on_that_modules_lines(tmp_path):
    main = _program(tmp_path, ".", "from prep import normalise")
    with run_from(tmp_path):
        report = profile_path("train.py")
    assert not report.errors
    first = report.findings[0]
    assert first.rule == "cpu-function" and first.ref.path == "prep.py", [(f.rule, f.ref.path, f.line) for f in report.findings]
    assert 6 <= first.line <= first.end_line <= 8 and first.evidence.measurable and first.evidence.estimated_saving_s > 0
    assert any(s.ref.path == "prep.py" for s in report.profile.lines)
    assert main.exists()


def test_a_module_of_a_package_beside_the_script_is_the_programs_too(tmp_path):
    _program(tmp_path, "lib", "from lib.prep import normalise")
    (tmp_path / "lib" / "__init__.py").write_text("")
    report = profile_path(str(tmp_path / "train.py"))
    paths = {s.ref.path for s in report.profile.lines}
    assert str(tmp_path / "lib" / "prep.py") in paths


def test_installed_code_inside_the_programs_folder_is_not_traced(tmp_path):
    """Near miss: a virtual environment in the project folder is not the program's code; its
    time stays on the line that calls it."""
    site = ".venv/lib/python3.11/site-packages"
    _program(tmp_path, site, f"import sys; sys.path.insert(0, {str(tmp_path / site)!r}); from prep import normalise")
    report = profile_path(str(tmp_path / "train.py"))
    assert not report.errors
    assert {s.ref.path for s in report.profile.lines} == {str(tmp_path / "train.py")}


def test_a_module_outside_the_programs_folder_is_not_traced(tmp_path):
    """Near miss: a module found on a path outside the script's folder (a shared checkout)."""
    other = tmp_path / "elsewhere"
    prog = tmp_path / "prog"
    prog.mkdir()
    _program(other, ".", "")
    (prog / "train.py").write_text(MAIN.format(
        import_line=f"import sys; sys.path.insert(0, {str(other)!r}); from prep import normalise"))
    report = profile_path(str(prog / "train.py"))
    assert not report.errors
    assert {s.ref.path for s in report.profile.lines} == {str(prog / "train.py")}


CLEAN_MAIN = """import torch
import torch.nn.functional as F
from model import Net

torch.manual_seed(0)
net = Net()
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
x, y = torch.randn(256, 32), torch.randint(0, 4, (256,))
for step in range(60):
    loss = F.cross_entropy(net(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 20 == 0:
        print(step, loss.item())
"""

CLEAN_MODEL = """import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU())
        self.head = nn.Linear(64, 4)

    def forward(self, x):
        h = self.body(x)
        return self.head(h)
"""


def test_a_clean_program_with_its_model_in_a_module_gets_no_medium_or_high_finding(tmp_path):
    """Near miss: the model's forward in `model.py` is torch work, traced or not."""
    (tmp_path / "model.py").write_text(CLEAN_MODEL)
    (tmp_path / "train.py").write_text(CLEAN_MAIN)
    report = profile_path(str(tmp_path / "train.py"))
    assert not report.errors
    loud = [(f.rule, f.ref.path, f.line) for f in report.findings if f.severity in (Severity.MEDIUM, Severity.HIGH)]
    assert loud == []


def test_the_profile_lists_the_static_findings_of_local_modules_as_the_scan_does(tmp_path):
    (tmp_path / "evaluate.py").write_text("""import torch


def evaluate(model, batches):
    model.eval()
    total = 0.0
    for x in batches:
        total += model(x).sum()
    return total
""")
    (tmp_path / "train.py").write_text("""import torch
from evaluate import evaluate

model = torch.nn.Linear(16, 4)
batches = [torch.randn(8, 16) for _ in range(20)]
for epoch in range(6):
    print(float(evaluate(model, batches)))
""")
    scan = {(f.rule, os.path.basename(f.ref.path), f.line) for f in analyze_path(str(tmp_path / "train.py")).findings}
    prof = {(f.rule, os.path.basename(f.ref.path), f.line) for f in profile_path(str(tmp_path / "train.py")).findings}
    in_module = {k for k in scan if k[1] == "evaluate.py"}
    assert in_module and in_module <= prof
