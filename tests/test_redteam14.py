"""Red team 14's findings that need more than one unit: a notebook whose later cell redefines a
helper an evaluation loop calls, and a project whose local module changes state the script's loop
reads (`hooks.tick()` rebinding `state.scale`, `hooks.grow()` growing a list imported by name)."""

from __future__ import annotations

import json
from pathlib import Path

from paef_jupyter.api import analyze
from paef_jupyter.model import CellRef, SourceUnit
from paef_cli import paef

SETUP = """import torch
net = torch.nn.Linear(3, 2)
probe = torch.nn.Linear(2, 1)
data = [torch.randn(4, 3) for _ in range(3)]
def metric(out):
    return out.mean()
"""
EVALUATE = """def evaluate():
    net.eval()
    scores = []
    for x in data:
        out = net(x)
        scores.append(float(metric(out)))
    return scores
print(evaluate())
"""


def _cells(*sources: str) -> list[SourceUnit]:
    return [SourceUnit(CellRef("nb.ipynb", i), s) for i, s in enumerate(sources)]


def _wraps(*later: str) -> list[bool]:
    found = analyze(_cells(SETUP, EVALUATE, *later), rules=["eval-without-no-grad"]).findings
    return [bool(f.fix and f.fix.automatic) for f in found]


def test_a_helper_a_later_cell_redefines_to_back_propagate_keeps_the_wrap_for_review() -> None:
    """`evaluate()` runs again after a later cell whose `metric` back-propagates a probe (or is
    rebound to a lambda): no_grad around its loop would make that call raise. Fails on 1e91fd5."""
    backward = "def metric(out):\n    loss = probe(out).mean()\n    loss.backward()\n    return loss.detach()\nprint(evaluate())\n"
    rebound = "metric = lambda out: torch.autograd.grad(out.sum(), net.weight)[0].sum()\nprint(evaluate())\n"
    indirect = ("def fit(out):\n    loss = probe(out).mean()\n    loss.backward()\n    return loss.detach()\n"
                "def metric(out):\n    return fit(out)\nprint(evaluate())\n")
    for later in (backward, rebound, indirect):
        assert _wraps(later) == [False], later


def test_a_later_helper_that_only_measures_leaves_the_wrap_automatic() -> None:
    """Near misses: a later cell redefining `metric` without autograd, or one that back-propagates
    on its own without redefining anything the loop calls."""
    plain = "def metric(out):\n    return out.abs().mean()\nprint(evaluate())\n"
    trains = "loss = probe(net(data[0])).mean()\nloss.backward()\n"
    for later in (plain, trains):
        assert _wraps(later) == [True], later


MAIN = """import torch

import hooks
import state
from state import widths

vals = []
for step in range(3):
    s = torch.full((2,), state.scale)
    hooks.tick()
    z = torch.zeros(widths[-1])
    hooks.grow()
    vals.append((s.sum().item(), z.numel()))
print(vals)
"""
STATE = "scale = 1.0\nwidths = [2]\nLIMIT = 4\n"
HOOKS = """import state
from state import widths


def tick():
    state.scale = state.scale * 2


def grow():
    widths.append(widths[-1] + 1)


def report(v):
    return v
"""


def _hoists(root: Path, main: str) -> list[int]:
    (root / "main.py").write_text(main)
    (root / "state.py").write_text(STATE)
    (root / "hooks.py").write_text(HOOKS)
    proc = paef("scan", str(root / "main.py"), "--format", "json", "--rule", "redundant-tensor")
    assert proc.returncode in (0, 1), proc.stderr
    return [f["line"] for f in json.loads(proc.stdout)["findings"] if f["fixable"]]


def test_state_a_local_module_changes_is_not_hoisted(tmp_path: Path) -> None:
    """`state.scale` rebound and `widths` grown by `hooks`' functions the loop calls: neither
    tensor is loop-invariant. Fails on 1e91fd5 (both hoisted)."""
    assert _hoists(tmp_path, MAIN) == []


def test_a_local_modules_constant_read_by_a_loop_calling_no_local_code_is_hoisted(tmp_path: Path) -> None:
    """Near miss: the same reads in a loop that calls no code of a local module."""
    main = MAIN.replace("    hooks.tick()\n", "").replace("    hooks.grow()\n", "")
    assert _hoists(tmp_path, main) == [9, 10]
