"""Red team 34 (blind, wider than eval-without-no-grad) found automatic rewrites that changed what
a program prints, in four categories, each now left to review or refused:

- ddp-save-every-rank guarded a save whose destination is each rank's own (an in-memory buffer
  gathered for replica sizes): the destination must be proved a shared path (closed list);
- ddp-save-every-rank chose `dist.get_rank() == 0` after a teardown reached through a helper
  (`cleanup()` defined below `main`): only a teardown below the save in its own scope keeps it;
- cpu-then-move built a fractional `arange` on the device, where CUDA rounds `start + step * i`
  in float32 (GPU-only: `t <= 1.3` loses a point);
- graph-retention's `.detach()` and host-sync's `.detach().double()` ran a tracing subclass's
  `__torch_function__` once more per step.
"""

from __future__ import annotations

import pytest
from paef_jupyter.model import CellRef, SourceUnit
from redteam_units import REDTEAM, program_units, rule_findings, source_units


@pytest.mark.parametrize("program,rule", [
    ("rt34_dd_bytes_per_rank.py", "ddp-save-every-rank"),
    ("rt34_dd_save_after_cleanup.py", "ddp-save-every-rank"),
    ("rt34_ctm_arange_time_grid.py", "cpu-then-move"),
    ("rt34_nb_ctm_fourier.ipynb", "cpu-then-move"),
    ("rt34_gr_traced_subclass.py", "graph-retention"),
    ("rt34_nb_hs_traced.ipynb", "host-sync"),
])
def test_red_team_34_rewrites_are_no_longer_automatic(program: str, rule: str) -> None:
    found = rule_findings(program_units(REDTEAM / program), rule)
    assert found and not any(f.fix is not None and f.fix.automatic for f in found)


SAVE = '''import io
import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
model = DDP(nn.Linear(2, 1))
{setup}
torch.save(model.module.state_dict(), {dest})
'''


@pytest.mark.parametrize("setup,dest", [
    ("buf = io.BytesIO()", "buf"),
    ("import tempfile\nd = tempfile.mkdtemp()", "d + '/m.pt'"),
    ("", "io.BytesIO()"),
    ("import tempfile\nf = tempfile.NamedTemporaryFile()", "f"),
])
def test_a_save_to_each_ranks_own_destination_is_not_guarded(setup: str, dest: str) -> None:
    (finding,) = rule_findings(source_units(SAVE.format(setup=setup, dest=dest)), "ddp-save-every-rank")
    assert finding.fix is not None and not finding.fix.automatic


@pytest.mark.parametrize("setup,dest", [
    ("", "'model.pt'"),
    ("import os\nout = os.environ.get('OUT', 'ckpt')", "os.path.join(out, 'model.pt')"),
    ("from pathlib import Path\nroot = Path('runs')", "root / 'model.pt'"),
    ("name = 'run'", "f'{name}.pt'"),
])
def test_a_save_to_a_shared_path_stays_automatic(setup: str, dest: str) -> None:
    (finding,) = rule_findings(source_units(SAVE.format(setup=setup, dest=dest)), "ddp-save-every-rank")
    assert finding.fix is not None and finding.fix.automatic


TEARDOWN = '''import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP
{before}
def main():
    dist.init_process_group("gloo")
    model = DDP(nn.Linear(2, 1))
    for epoch in range(2):
        {in_loop}
        torch.save(model.module.state_dict(), "m.pt")
    {after}
{below}
'''


@pytest.mark.parametrize("before,in_loop,after,below,short", [
    ("", "pass", "cleanup()", "def cleanup():\n    dist.destroy_process_group()", False),  # a helper's teardown: not followed
    ("", "cleanup()", "pass", "def cleanup():\n    dist.destroy_process_group()", False),  # helper defined below
    ("def stop():\n    dist.destroy_process_group()", "stop()", "pass", "", False),  # helper defined above
    ("", "pass", "dist.destroy_process_group()", "", True),  # below the save, outside its loop
])
def test_the_short_guard_needs_the_group_alive_at_the_save(before: str, in_loop: str, after: str, below: str,
                                                          short: bool) -> None:
    (finding,) = rule_findings(source_units(TEARDOWN.format(before=before, in_loop=in_loop, after=after, below=below)),
                           "ddp-save-every-rank")
    assert finding.fix is not None and finding.fix.automatic
    assert ("is_initialized" not in finding.fix.description) is short


def test_a_teardown_in_the_loop_after_the_save_takes_the_long_guard() -> None:
    source = TEARDOWN.format(before="", in_loop="pass", after="pass", below="").replace(
        '"m.pt")\n', '"m.pt")\n        dist.destroy_process_group()\n')
    (finding,) = rule_findings(source_units(source), "ddp-save-every-rank")
    assert finding.fix is not None and "is_initialized" in finding.fix.description


RANGE = '''import torch
device = torch.device("cpu")
for n in range(2, 5):
    t = {factory}.to(device)
    print(t)
'''


@pytest.mark.parametrize("factory,automatic", [
    ("torch.arange(0, n, 0.1)", False),
    ("torch.arange(0.5, n)", False),
    ("torch.linspace(0, n, 7)", False),
    ("torch.logspace(0, n, 7)", False),
    ("torch.arange(n)", True),
    ("torch.arange(n * 0.5)", True),
    ("torch.arange(1, n, 2)", True),
    ("torch.zeros(n)", True),
])
def test_ranges_computed_in_floating_point_are_left_to_review(factory: str, automatic: bool) -> None:
    (finding,) = rule_findings(source_units(RANGE.format(factory=factory)), "cpu-then-move")
    assert finding.fix is not None and finding.fix.automatic is automatic
    assert automatic or finding.fix.needs_review


ACCUMULATE = '''import torch
from torch import nn
{classes}
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(3, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = [(torch.randn(4, 3), torch.randn(4, 1)) for _ in range(3)]
history = []
for epoch in range(2):
    total = 0.0
    for x, y in data:
        loss = nn.functional.mse_loss(model(x.to(device)), y.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += {added}
    history.append(float(total) / len(data))
'''
TRACED = ("class T(torch.Tensor):\n    @classmethod\n    def __torch_function__(cls, func, types, args=(), kwargs=None):\n"
          "        return super().__torch_function__(func, types, args, kwargs or {})")


@pytest.mark.parametrize("classes,automatic", [
    (TRACED, False),
    ("from torch.overrides import TorchFunctionMode\nclass M(TorchFunctionMode):\n    pass", False),
    ("class P(nn.Parameter):\n    pass\nclass Q(P):\n    pass", False),
    ("class Net(nn.Module):\n    pass\nclass Meter:\n    def __call__(self, x):\n        return x", True),
])
def test_program_tensor_classes_leave_inserted_torch_calls_to_review(classes: str, automatic: bool) -> None:
    for rule, added in (("graph-retention", "loss"), ("host-sync", "loss.item()")):
        (finding,) = [f for f in rule_findings(source_units(ACCUMULATE.format(classes=classes, added=added)), rule)
                      if f.line == 16 + classes.count("\n")]
        assert finding.fix is not None and finding.fix.automatic is automatic, rule


def test_a_tensor_subclass_in_an_earlier_cell_counts() -> None:
    cells = [SourceUnit(CellRef("n.ipynb", 0), "import torch\n" + TRACED),
             SourceUnit(CellRef("n.ipynb", 1), ACCUMULATE.format(classes="", added="loss"))]
    found = rule_findings(cells, "graph-retention")
    assert found and not any(f.fix is not None and f.fix.automatic for f in found)


def test_an_attribute_the_unit_binds_to_a_buffer_is_not_a_shared_path() -> None:
    source = SAVE.format(setup="class Box:\n    pass\nbox = Box()\nbox.buf = io.BytesIO()", dest="box.buf")
    (finding,) = rule_findings(source_units(source), "ddp-save-every-rank")
    assert finding.fix is not None and not finding.fix.automatic
    source = SAVE.format(setup="class Box:\n    pass\nbox = Box()\nbox.out = 'm.pt'", dest="box.out")
    (finding,) = rule_findings(source_units(source), "ddp-save-every-rank")
    assert finding.fix is not None and finding.fix.automatic


@pytest.mark.parametrize("rule,body", [
    ("cpu-then-move", "for step in range(3):\n    grid = torch.zeros(step + 1).to(device)\n    print(float((grid + step).sum()))"),
    ("redundant-tensor", "x = torch.ones(4)\nfor step in range(3):\n    scale = torch.tensor([2.0, 3.0, 4.0, 5.0])\n    print(float((x * scale).sum()))"),
])
def test_a_program_tensor_class_leaves_every_rules_automatic_rewrite_to_review(rule: str, body: str) -> None:
    head = "import torch\ndevice = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n"
    plain = rule_findings(source_units(head + body), rule)
    assert plain and all(f.fixable for f in plain), rule  # the program alone: automatic
    traced = rule_findings(source_units(head + TRACED + "\n" + body), rule)
    assert traced and not any(f.fixable for f in traced), rule
    assert all("tensor subclass or torch mode" in f.fix.review for f in traced if f.fix is not None)
