"""A device that is provably the CPU, whatever its name (public26 n08, a seq2seq notebook).

`DEV = torch.device("cpu")` in an earlier cell was judged by its spelling ("dev"): the later
`x.to(DEV)` counted as a copy to an accelerator (a pinned-memory finding), and a local module's
`sample_translation(..., device)` that moves its input `.to(device)` made the whole notebook "use
a device" though every call passes `DEV`, so `loss.item()` on the CPU was reported as a device
sync. A name bound in an earlier cell to the CPU, and a helper's parameter for which the call
passes the CPU, now name no accelerator; anything else keeps the old verdict.
"""

from __future__ import annotations

import json
from pathlib import Path

import nbformat

from paef_cli import paef
from paef_jupyter.model import CellRef, SourceUnit
from paef_jupyter.static.analyzer import analyze_units

IMPORTS = "import torch\nfrom torch import nn\nfrom torch.utils.data import DataLoader, TensorDataset\n"
SETUP = (
    "loader = DataLoader(TensorDataset(torch.randn(64, 4), torch.randn(64, 1)), batch_size=8, num_workers=2)\n"
    "model = nn.Linear(4, 1).to(DEV)\n"
    "opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
)
LOOP = (
    "for epoch in range(3):\n"
    "    total = 0\n"
    "    for x, y in loader:\n"
    "        x, y = x.to(DEV), y.to(DEV)\n"
    "        loss = ((model(x) - y) ** 2).mean()\n"
    "        opt.zero_grad()\n"
    "        loss.backward()\n"
    "        opt.step()\n"
    "        total += loss.item()\n"
    "    print(total)\n"
)


def _findings(device_cell: str) -> list[tuple[str, int | None, int]]:
    cells = [IMPORTS, device_cell, SETUP, LOOP]
    units = [SourceUnit(CellRef("nb.ipynb", i), text) for i, text in enumerate(cells)]
    report = analyze_units(units, rules=["pageable-transfer", "host-sync"])
    return sorted((f.rule, f.ref.cell, f.line) for f in report.findings)


def test_a_cpu_device_object_bound_in_an_earlier_cell_is_no_accelerator() -> None:
    assert _findings('DEV = torch.device("cpu")\n') == []


def test_a_cpu_string_bound_in_an_earlier_cell_is_no_accelerator() -> None:
    assert _findings('DEV = "cpu"\n') == []


def test_an_accelerator_bound_in_an_earlier_cell_still_counts() -> None:
    assert ("pageable-transfer", 2, 1) in _findings('DEV = torch.device("cuda")\n')


def test_a_device_of_unknown_value_in_an_earlier_cell_keeps_its_name_verdict() -> None:
    assert ("pageable-transfer", 2, 1) in _findings("DEV = pick_device()\n")


HELPER = '''\
import torch


def sample(model, batch, device):
{rebind}    out = model(batch.to(device))
    return out.argmax(dim=1)
'''
NOTEBOOK = [
    "import torch\nfrom torch import nn\nfrom utils import sample\n",
    "DEV = {device}\n",
    "model = nn.Linear(4, 3).to(DEV)\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
    "data = [(torch.randn(8, 4), torch.randint(0, 3, (8,))) for _ in range(4)]\n",
    "for epoch in range(3):\n"
    "    total = 0\n"
    "    for x, y in data:\n"
    "        loss = nn.functional.cross_entropy(model(x), y)\n"
    "        opt.zero_grad()\n"
    "        loss.backward()\n"
    "        opt.step()\n"
    "        total += loss.item()\n"
    "    with torch.no_grad():\n"
    "        print(sample(model, data[0][0], {arg}))\n",
]


def _scan_project(tmp_path: Path, device: str, arg: str = "DEV", rebind: str = "") -> list[tuple[str, int]]:
    (tmp_path / ".git").mkdir()
    (tmp_path / "utils.py").write_text(HELPER.format(rebind=rebind))
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(c.format(device=device, arg=arg)) for c in NOTEBOOK]
    path = tmp_path / "train.ipynb"
    nbformat.write(nb, str(path))
    proc = paef("scan", str(path), "--format", "json", "--rule", "host-sync")
    assert proc.returncode in (0, 1), proc.stderr
    return [(f["rule"], f["line"]) for f in json.loads(proc.stdout)["findings"]]


def test_a_helper_given_the_cpu_device_name_moves_nothing_to_an_accelerator(tmp_path: Path) -> None:
    assert _scan_project(tmp_path, 'torch.device("cpu")') == []


def test_a_helper_given_the_cpu_string_moves_nothing_to_an_accelerator(tmp_path: Path) -> None:
    assert _scan_project(tmp_path, '"cpu"', arg='"cpu"') == []


def test_a_helper_given_the_cpu_device_by_keyword_moves_nothing_to_an_accelerator(tmp_path: Path) -> None:
    assert _scan_project(tmp_path, 'torch.device("cpu")', arg="device=DEV") == []


def test_a_helper_given_an_accelerator_still_makes_the_program_use_one(tmp_path: Path) -> None:
    assert _scan_project(tmp_path, 'torch.device("cuda")') == [("host-sync", 8)]


def test_a_helper_that_rebinds_its_device_parameter_keeps_its_verdict(tmp_path: Path) -> None:
    rebind = '    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")\n'
    assert _scan_project(tmp_path, 'torch.device("cpu")', rebind=rebind) == [("host-sync", 8)]
