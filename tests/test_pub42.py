"""Public check 42 (benchmarks/public42): first contact's right findings kept, the precision traps
kept silent (CTC lengths made on the host every step, a frozen encoder's forward, MAML's retained
graph), and this check's two categories held on the public programs that had them:

- a device name bound in an earlier notebook cell by `if torch.cuda.is_available(): device =
  torch.device("cuda") else: device = torch.device("cpu")`: only the last binding (the CPU's) was
  kept for later cells, so the device was taken for the CPU and the PINN workshop notebook's
  per-step `loss.item()` went unreported (host-sync, p06);
- a device named by an upper-case configuration constant, `v.to(config.DEVICE)`: read as no
  device at all (host-sync, p05's `fin_loss += loss.item()`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from public_findings import line_rules

from paef_jupyter.model import CellRef, SourceUnit
from paef_jupyter.static.analyzer import analyze_units

pytestmark = pytest.mark.usefixtures("one_torch_thread")

ROOT = Path(__file__).resolve().parents[1]
SHAPES = ROOT / "tests" / "fixtures" / "public_shapes" / "check42"  # own-written shapes of the public programs

IMPORTS = "import torch\nfrom torch import nn\nfrom torch.utils.data import DataLoader, TensorDataset\n"
SETUP = (
    "loader = DataLoader(TensorDataset(torch.randn(64, 4), torch.randn(64, 1)), batch_size=8, num_workers=2)\n"
    "model = nn.Linear(4, 1).to(device)\n"
    "opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
)
LOOP = (
    "for epoch in range(3):\n"
    "    total = 0\n"
    "    for x, y in loader:\n"
    "        x, y = x.to(device), y.to(device)\n"
    "        loss = ((model(x) - y) ** 2).mean()\n"
    "        opt.zero_grad()\n"
    "        loss.backward()\n"
    "        opt.step()\n"
    "        total += loss.item()\n"
    "    print(total)\n"
)
BRANCHES = ('if torch.cuda.is_available():\n    device = torch.device("cuda")\n'
            'else:\n    device = torch.device("cpu")\n')


def _findings(*device_cells: str) -> list[tuple[str, int | None, int]]:
    cells = [IMPORTS, *device_cells, SETUP, LOOP]
    units = [SourceUnit(CellRef("nb.ipynb", i), text) for i, text in enumerate(cells)]
    report = analyze_units(units, rules=["pageable-transfer", "host-sync"])
    return sorted((f.rule, f.ref.cell, f.line) for f in report.findings)


def test_first_contact_findings_kept() -> None:
    assert (2, "pageable-transfer") in line_rules(SHAPES / "skipgram_loader.ipynb")  # p02: the unpinned 4-worker loader
    maml = line_rules(SHAPES / "maml_fast_weights.ipynb")  # p04
    assert {(45, "host-sync"), (47, "host-sync"), (33, "host-sync")} <= maml


def test_precision_traps_stay_silent() -> None:
    ocr = line_rules(SHAPES / "ctc_config_device.py")  # p05
    assert not {line for line, _ in ocr} & {40, 41, 42, 43}  # CTC lengths on the host, the loss module
    assert not {rule for _, rule in line_rules(SHAPES / "frozen_encoder_caption.py")} & {"eval-without-no-grad"}  # p03
    assert not {rule for _, rule in line_rules(SHAPES / "maml_fast_weights.ipynb")} & {"graph-retention"}


def test_device_chosen_by_branches_of_an_earlier_cell_may_be_the_gpu() -> None:
    found = _findings(BRANCHES)
    assert ("host-sync", 3, 9) in found  # the loop cell's `total += loss.item()`
    assert ("pageable-transfer", 2, 1) in found


def test_device_cell_whose_every_branch_is_the_cpu_stays_the_cpu() -> None:
    assert _findings('if torch.cuda.is_available():\n    device = torch.device("cpu")\nelse:\n    device = "cpu"\n') == []


def test_a_later_cpu_binding_replaces_the_branches() -> None:
    # the last cell that binds the name decides: its every binding is the CPU
    assert _findings(BRANCHES, 'device = torch.device("cpu")\n') == []


def test_pinn_workshop_loss_log_found() -> None:
    # p06's shape: cell 4's Adam loop `history.append(loss.item())`, the device chosen in cell 2 by two branches
    assert (11, "host-sync") in line_rules(SHAPES / "pinn_adam_log.ipynb")


def test_config_device_constant_found() -> None:
    # p05's shape: `total += loss.item()` after `value.to(Settings.DEVICE)`; also
    # tests/fixtures/rules/host-sync/pos_config_device_constant.py and its near misses
    assert (57, "host-sync") in line_rules(SHAPES / "ctc_config_device.py")
