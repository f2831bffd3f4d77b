"""Public check 39 (benchmarks/public39, five of the eight programs notebooks): first contact's
right findings kept, and this check's two categories held on the public programs that had them:
a device tensor's copy to the host whose value is thrown away (the char-RNN notebook's
`probs.cpu()` per generated character: host-sync), and an evaluation pass through a shared
train/evaluate loop that returns ratios guarded by `max(1, n)` (the seq2seq's
`run_epoch(..., optimiser=None)` after `.eval()`: eval-without-no-grad, which needed
`_python_numbers` to know `max`/`min`/`abs`/`round` of Python numbers). The public programs are
kept out of the repository: the tests read own-written programs of the same shapes
(tests/fixtures/public_shapes/check39; the notebook shapes are cells split at `# %%`, written as a
notebook by `write_notebook`). The seq2seq dev pass (p08) is the fact `_SHARED` below proves
(`test_shared_loop_returning_guarded_ratio`, its first case)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from paef_cli import paef
from public_findings import line_rules, write_notebook

from paef_jupyter.api import analyze_source

pytestmark = pytest.mark.usefixtures("one_torch_thread")

ROOT = Path(__file__).resolve().parents[1]
SHAPES = ROOT / "tests" / "fixtures" / "public_shapes" / "check39"


def _cell_rules(tmp_path: Path, name: str) -> set[tuple[int, int, str]]:
    """(cell, line, rule) of `paef scan --format json` on the notebook of a shape's `# %%` cells."""
    cells = (SHAPES / name).read_text().split("# %%\n")
    done = paef("scan", "--format", "json", str(write_notebook(tmp_path, *cells)))
    return {(f["cell"], f["line"], f["rule"]) for f in json.loads(done.stdout)["findings"]}


def test_python_programs_first_contact_findings_kept():
    assert {(32, "cpu-then-move"), (39, "cpu-then-move"), (44, "host-sync")} <= line_rules(SHAPES / "gan_trainer_steps.py")
    assert (37, "host-sync") in line_rules(SHAPES / "encoder_accumulated_steps.py")


def test_notebook_first_contact_findings_kept(tmp_path: Path):
    gan = _cell_rules(tmp_path, "gan_one_cell.py")
    assert {(0, 22, "cpu-then-move"), (0, 25, "cpu-then-move"), (0, 35, "host-sync")} <= gan
    assert (4, 3, "eval-without-no-grad") in _cell_rules(tmp_path, "course_cnn_cells.py")


def test_discarded_copy_in_char_rnn_predict_found(tmp_path: Path):
    found = _cell_rules(tmp_path, "char_lstm_cells.py")
    assert {(4, 14, "host-sync"), (6, 7, "host-sync")} <= found
    assert not {(6, 9, "host-sync"), (6, 10, "host-sync")} & found  # the copies `np.random.choice` needs


_DISCARDED = """
import torch
import torch.nn as nn

device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(4, 2).to(device)
for step in range(3):
    out = model(torch.randn(2, 4, device=device))
    {stmt}
"""


@pytest.mark.parametrize(("stmt", "reported"), [
    ("out.cpu()", True),
    ("out.detach().cpu().numpy()", True),
    ("out.sum().item()", True),
    ("model.cpu()", False),  # a module's `.cpu()` moves it in place
    ("kept = out.cpu()", False),  # the copy is used (the ordinary host-sync verdict decides, not this one)
    ("torch.ones(3).cpu()", False),  # built on the host
])
def test_discarded_copy_statement(stmt: str, reported: bool):
    findings = [f for f in analyze_source(_DISCARDED.format(stmt=stmt)).findings
                if f.rule == "host-sync" and "throws the copy away" in f.message]
    assert bool(findings) is reported


_SHARED = """
import torch
import torch.nn.functional as F

model = torch.nn.Linear(4, 3)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = [(torch.randn(2, 4), torch.tensor([0, 1])) for _ in range(3)]


def run_epoch(model, loader, optimiser=None):
    correct = total = 0
    loss_sum = 0
    for x, y in loader:
        out = model(x)
        loss = F.cross_entropy(out, y)
        if optimiser is not None:
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
        correct += (out.argmax(1) == y).sum().item()
        total += y.size(0)
        loss_sum = loss_sum + loss
    return {ret}


model.train()
run_epoch(model, data, opt)
model.eval()
acc = run_epoch(model, data, optimiser=None)
"""


@pytest.mark.parametrize(("ret", "reported"), [
    ("correct / max(1, total), total", True),
    ("correct / min(total, 100), total", True),
    ("correct / abs(round(total, 1)), total", True),
    ("loss_sum / max(1, total), total", False),  # a sum of losses with their graphs: a caller could back-propagate it
    ("correct / max(1, total), loss_sum", False),
    ("correct / max([total, 1]), total", False),  # one argument, an iterable: its elements are not proved numbers
])
def test_shared_loop_returning_guarded_ratio(ret: str, reported: bool):
    findings = [f for f in analyze_source(_SHARED.format(ret=ret)).findings if f.rule == "eval-without-no-grad"]
    assert bool(findings) is reported
