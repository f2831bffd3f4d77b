"""The cap on memory added while profiling counts what the profiler records, never the cell's
own allocations nor the profiler's start-up: a short script must not read 'profiling stopped'.
Each case is a fresh process (`paef profile`), where the first profiler session's start-up
(tens of MB in kineto) happens for real."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")

SCRIPTS = {
    # No loop: the whole script is profiled; only kineto's start-up grows the process.
    "no loop": "import torch\nx = torch.randn(200, 200)\ny = (x @ x).relu().sum().item()\nprint(y > -1)\n",
    "a model built": (
        "import torch\ntorch.manual_seed(0)\n"
        "model = torch.nn.Sequential(torch.nn.Linear(512, 2048), torch.nn.ReLU(), torch.nn.Linear(2048, 10))\n"
        "out = model(torch.randn(256, 512)).sum().item()\nprint(out is not None)\n"
    ),
    # 64 MB in one step, then 64 MB more: the cell's memory, not recorded events.
    "big allocations": (
        "import torch\nbig = torch.ones(16 * 2**20)\nmore = torch.ones(16 * 2**20) * 2\n"
        "print((big.sum() + more.sum()).item() > 0)\n"
    ),
    "big allocations in a window": (
        "import torch\nkeep = []\nfor i in range(12):\n    keep.append(torch.full((4 * 2**20,), float(i)))\n"
        "    s = keep[-1].sum().item()\nprint(len(keep))\n"
    ),
}


@pytest.mark.parametrize("name", list(SCRIPTS))
def test_the_cell_s_own_memory_does_not_stop_profiling(name: str, tmp_path: Path) -> None:
    script = tmp_path / "train.py"
    script.write_text(SCRIPTS[name])
    out = tmp_path / "report.json"
    done = subprocess.run([sys.executable, "-m", "paef_jupyter.cli", "profile", str(script), "--json", str(out)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode in (0, 1), done.stderr
    notes = json.loads(out.read_text())["profile"]["notes"]
    assert not any("profiling stopped" in n for n in notes), notes
