"""Three consistency/precision gaps met while writing own-written programs (session 60):

1. an `if` whose arm trains and then returns, followed by the evaluation part without `else:`: the
   part after the branch runs only where the test is false, as an `else:` arm would (host-sync's
   "every training step", the flag-gated calls of eval-without-no-grad);
2. a device attribute recognised by what is stored in it, not by its name (`self.dev`), and one
   every store of which is the CPU kept silent (`opts.__device__ = "cpu"`);
3. a notebook whose imports sit in an earlier cell: jedi is given them, so a later cell types what
   the same code in one cell types.
Each firing test here fails on cde58801 (checked in a detached worktree of it)."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

from paef_jupyter.api import analyze_path, analyze_source
from paef_jupyter.model import CellRef
from paef_jupyter.static.facts import Facts, Prior
from public_findings import write_notebook


def _lines(source: str, rule: str) -> list[int]:
    report = analyze_source(source, CellRef("prog.py"), rules=[rule])
    assert not report.errors
    return sorted(f.line for f in report.findings)


def _cells(path: Path, rule: str) -> list[tuple[int | None, int]]:
    report = analyze_path(str(path), rules=[rule])
    assert not report.errors
    return sorted((f.ref.cell, f.line) for f in report.findings)


# --- 1. an arm that trains and returns, then the evaluation part without `else:` -------------------

PREDICT = '''import torch
import torch.nn as nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = nn.Linear(8, 2).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loss_fn = nn.CrossEntropyLoss()


def predict(batch, train):
    x, y = batch
    x, y = x.to(device), y.to(device)
    if train:
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        return loss
{tail}

loader = [(torch.randn(4, 8), torch.randint(0, 2, (4,))) for _ in range(10)]
for epoch in range(3):
    for batch in loader:
        predict(batch, True)
preds = [predict(b, False) for b in loader]
'''
NO_ELSE = '''    with torch.no_grad():
        guess = model(x).argmax(1)
        return guess.to("cpu").numpy()
'''
WITH_ELSE = '''    else:
        with torch.no_grad():
            guess = model(x).argmax(1)
            return guess.to("cpu").numpy()
'''


def test_evaluation_part_after_a_returning_training_arm_is_not_a_training_step():
    assert _lines(PREDICT.format(tail=NO_ELSE), "host-sync") == []


def test_the_same_part_under_else_stays_silent():
    assert _lines(PREDICT.format(tail=WITH_ELSE), "host-sync") == []


def test_a_copy_before_the_training_arm_is_still_every_step():
    source = PREDICT.format(tail=NO_ELSE).replace(
        "    if train:\n", "    seen = model(x).argmax(1).cpu().numpy()\n    if train:\n", 1)
    assert _lines(source, "host-sync") == [13]


def test_a_guard_that_leaves_without_training_changes_nothing():
    source = PREDICT.format(tail=NO_ELSE).replace(
        "    if train:\n        opt.zero_grad()",
        "    if x.size(0) == 0:\n        return None\n    if train:\n        opt.zero_grad()", 1)
    source = source.replace("        return loss\n", "        return loss.item()\n", 1)
    assert _lines(source, "host-sync") == [20]


FIXTURES = Path(__file__).resolve().parent / "fixtures" / "rules"


def test_flag_taking_the_no_grad_arm_that_returns_records_no_graph():
    path = FIXTURES / "eval-without-no-grad" / "neg_flag_takes_the_no_grad_arm_that_returns.py"
    assert _lines(path.read_text(), "eval-without-no-grad") == []


def test_host_sync_fixture_of_the_returning_training_arm_is_silent():
    path = FIXTURES / "host-sync" / "neg_copy_after_the_training_arm_leaves.py"
    assert _lines(path.read_text(), "host-sync") == []


# --- 2. a device attribute by what is stored in it -------------------------------------------------

TRAINER = '''import torch
import torch.nn as nn
{prelude}

class Trainer:
    def __init__(self, model):
        self.{attr} = {value}
        self.model = model.to(self.{attr})
        self.opt = torch.optim.SGD(model.parameters(), lr=0.1)
        self.loss_fn = nn.CrossEntropyLoss()

    def train_epoch(self, loader):
        self.model.train()
        total = 0.0
        for x, y in loader:
            x, y = x.to(self.{attr}), y.to(self.{attr})
            self.opt.zero_grad()
            loss = self.loss_fn(self.model(x), y)
            loss.backward()
            self.opt.step()
            total += loss.item() * x.size(0)
        return total


loader = [(torch.randn(4, 8), torch.randint(0, 2, (4,))) for _ in range(10)]
trainer = Trainer(nn.Linear(8, 2))
for epoch in range(3):
    trainer.train_epoch(loader)
'''


@pytest.mark.parametrize("attr, value, prelude", [
    ("dev", 'torch.device("cuda" if torch.cuda.is_available() else "cpu")', ""),
    ("dev", '"cuda" if torch.cuda.is_available() else "cpu"', ""),
    ("where", 'torch.device("cuda:0")', ""),
    ("gpu_or_cpu", "DEV", 'DEV = torch.device("cuda" if torch.cuda.is_available() else "cpu")'),
])
def test_device_attribute_recognised_by_its_value(attr: str, value: str, prelude: str):
    assert _lines(TRAINER.format(attr=attr, value=value, prelude=prelude), "host-sync") == [21]


def test_device_attribute_named_device_still_recognised():
    value = 'torch.device("cuda" if torch.cuda.is_available() else "cpu")'
    assert _lines(TRAINER.format(attr="device", value=value, prelude=""), "host-sync") == [21]


@pytest.mark.parametrize("attr, value, prelude", [
    ("dev", 'torch.device("cpu")', ""),
    ("dev", '"cpu"', ""),
    ("where", "DEV", 'DEV = torch.device("cpu")'),
    ("dev", "DEV", 'DEV = "cpu"'),
    ("device", '"cpu"', ""),
    ("_device", 'torch.device("cpu")', ""),
    ("dev", "make_device()", "def make_device():\n    return 'cuda'"),  # a helper's value: not read
])
def test_device_attribute_bound_to_the_cpu_or_unread_stays_silent(attr: str, value: str, prelude: str):
    assert _lines(TRAINER.format(attr=attr, value=value, prelude=prelude), "host-sync") == []


def test_namespace_device_chosen_by_cuda_availability_still_found():
    shape = Path(__file__).resolve().parent / "fixtures" / "public_shapes" / "check47" / "neural_ca_namespace_device.py"
    assert _lines(shape.read_text(), "cpu-then-move") == [27]


# --- 3. imports in an earlier cell ----------------------------------------------------------------

IMPORTS = '''import torch
import torch.nn as nn
import torch.optim as optim
'''
WRITER_IMPORT = "from torch.utils.tensorboard import SummaryWriter\n"
PAINT = '''device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
writer = SummaryWriter()


def paint(picture, reference, rounds=3):
    net = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.ReLU()).to(device)
    canvas = picture.clone().requires_grad_()
    opt = optim.LBFGS([canvas])
    done = [0]
    while done[0] <= rounds:

        def closure():
            opt.zero_grad()
            activation = net(canvas)
            writer.add_histogram("activation", activation, done[0])
            score = (activation - reference).pow(2).mean()
            score.backward()
            done[0] += 1
            return score

        opt.step(closure)
    return canvas.detach()


picture = torch.rand(1, 3, 8, 8, device=device)
print(paint(picture, torch.rand(1, 4, 8, 8, device=device)).mean())
'''


def test_closure_histogram_found_in_one_cell(tmp_path: Path):
    assert _cells(write_notebook(tmp_path, IMPORTS + WRITER_IMPORT + PAINT), "host-sync") == [(0, 19)]


def test_closure_histogram_found_with_the_imports_in_an_earlier_cell(tmp_path: Path):
    assert _cells(write_notebook(tmp_path, IMPORTS, WRITER_IMPORT + PAINT), "host-sync") == [(1, 16)]


def test_closure_histogram_found_with_imports_and_writer_in_an_earlier_cell(tmp_path: Path):
    first, rest = PAINT.split("\n\n\n", 1)
    assert _cells(write_notebook(tmp_path, IMPORTS + WRITER_IMPORT + first + "\n", rest), "host-sync") == [(1, 11)]


@pytest.mark.parametrize("changes", [
    [('device = torch.device("cuda" if torch.cuda.is_available() else "cpu")', 'device = torch.device("cpu")')],
    [('            writer.add_histogram("activation", activation, done[0])\n',  # every 50 evaluations only
      '            if done[0] % 50 == 0:\n                writer.add_histogram("activation", activation, done[0])\n')],
    [('            writer.add_histogram("activation", activation, done[0])\n', ""),  # logged once, after the loop
     ("    return canvas.detach()", '    writer.add_histogram("canvas", canvas, rounds)\n    return canvas.detach()')],
])
def test_closure_near_misses_stay_silent_across_cells(tmp_path: Path, changes: list[tuple[str, str]]):
    body = PAINT
    for change in changes:
        body = body.replace(*change)
    assert body != PAINT
    assert _cells(write_notebook(tmp_path, IMPORTS, WRITER_IMPORT + body), "host-sync") == []


def test_earlier_imports_keep_only_what_the_earlier_cells_leave_bound():
    from paef_jupyter.static.facts import earlier_imports

    first = Facts(cst.parse_module("import torch\nimport torch.nn as nn\nfrom torch import optim as o\n"
                                   "from .local import helper\nimport numpy\n"))
    second = Facts(cst.parse_module("o = 3\n"), prior=Prior().after(first))
    prior = Prior().after(first).after(second)
    lines = earlier_imports(prior, {"numpy": object()}).splitlines()
    assert sorted(lines) == ["from torch import nn", "import torch"]
