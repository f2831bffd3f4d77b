"""Red team 31a (blind, on redundant-tensor, record-buffer, cpu-function): what fell at first contact.

- redundant-tensor: torch's default dtype switched by the program's own code that the loop runs
  without naming one of this unit's functions (a callback object, an earlier cell's helper): a
  factory built before the loop kept float32;
- redundant-tensor / cpu-function: objects handed to code of the program that keeps them and
  changes them by its own names (a loader advanced by `next()`, a hook's bound method);
- record-buffer: `.tolist()` rows of a program module that samples (int64 taken for "some float"),
  of `F.max_pool1d(..., return_indices=True)[1]` (int64 taken for the input's float), and a
  notebook buffer read by a later cell.
`benchmarks/results/redteam31a.md` has the numbers.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dtype_cases import assert_dtype_agrees
from paef_cli import fix_keeps_output

from paef_jupyter.api import analyze_path
from paef_jupyter.model import CellRef, SourceUnit
from paef_jupyter.static.analyzer import analyze_units

REDTEAM = Path(__file__).resolve().parent.parent / "benchmarks" / "redteam"
# Harmful at first contact on d455ee7 (wave 2), and wave 1's programs that reached a rewrite.
PROGRAMS = ["rt31a2_rt_precision_switch_callback.py", "rt31a2_rt_infinite_loader_mix.py",
            "rt31a2_rb_policy_sampled_actions.py", "rt31a2_rb_pooled_peak_positions.py",
            "rt31a2_cf_calib_histogram_hook.py", "rt31a_rb_pooled_peak_positions.py"]


@pytest.mark.parametrize("program", PROGRAMS)
def test_fix_keeps_the_output(tmp_path: Path, program: str) -> None:
    fix_keeps_output(tmp_path, REDTEAM / program)


def _fixable(path: Path, rule: str) -> list[tuple[int | None, int]]:
    report = analyze_path(str(path))
    return [(f.ref.cell, f.line) for f in report.findings if f.rule == rule and f.fixable]


@pytest.mark.parametrize("notebook", ["rt31a_nb_rt_float64_refine_helper.ipynb", "rt31a2_nb_rt_float64_refine_weights.ipynb"])
def test_earlier_cell_helper_switching_default_dtype_stops_the_hoist(notebook: str) -> None:
    assert _fixable(REDTEAM / notebook, "redundant-tensor") == []


def test_buffer_read_by_a_later_cell_is_not_rewritten() -> None:
    assert _fixable(REDTEAM / "rt31a_nb_rb_replay_inspected_later.ipynb", "record-buffer") == []


CELL = ("import random\nimport torch\nrandom.seed(0)\nlog = []\nfor t in range(6):\n    x = torch.randn(3)\n"
        "    log.append(x.tolist())\n    if len(log) >= 2:\n        rows = random.sample(range(len(log)), 2)\n"
        "        b = torch.tensor([log[i] for i in rows])\n")


@pytest.mark.parametrize(("later", "fixable"), [("print(log[-1])\n", False), ("n = len(log)\n", False),
                                                ("print(b.sum().item())\n", True)])
def test_later_cell_reading_the_buffer(later: str, fixable: bool) -> None:
    units = [SourceUnit(CellRef("nb.ipynb", 0), CELL), SourceUnit(CellRef("nb.ipynb", 1), later)]
    found = [f for f in analyze_units(units, rules=["record-buffer"]).findings if f.ref.cell == 0]
    assert [f.fixable for f in found] == [fixable]


SETUP = ("import torch.nn.functional as F\nfrom torch import nn\nsig = torch.randn(2, 1, 16)\n"
         "pool = nn.MaxPool1d(4, return_indices=True)\nplain = nn.MaxPool1d(4)\n")


@pytest.mark.parametrize("code", ["F.max_pool1d(sig, 4, return_indices=True)[1]",
                                  "F.max_pool1d(sig, 4, return_indices=True)[0]",
                                  "F.max_pool1d(sig, 4, return_indices=True)[1][0, 0]",
                                  "F.adaptive_max_pool1d(sig, 2, return_indices=True)[1]",
                                  "F.max_pool1d_with_indices(sig, 4)[1]", "pool(sig)[1]", "pool(sig)[0]", "plain(sig)",
                                  "F.max_pool1d(sig, 4)"])
def test_pooling_indices_are_int64(code: str) -> None:
    assert_dtype_agrees(SETUP, code)
