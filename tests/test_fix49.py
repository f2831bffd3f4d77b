"""fix49: gaps red team 27 and fix48 left, by category.

1. cpu-then-move: a cast to the dtype a view already has returns the view (`zeros(4, n)[:, :3].float()`):
   it does not compact, so `device=` keeps the gaps the move closed (fixtures `refuse_same_dtype_cast_
   keeps_view_with_gaps`, `cast_changing_dtype_near_misses`); the layouts are checked here with `.to("meta")`.
2. eval-without-no-grad: what the evaluation keeps is followed to a backward (see the fixtures).
3. graph-retention: a later notebook cell that rebinds the total at its top level before reading it
   reads the new value, not the training cell's.
4. redundant-tensor: `half = torch.float64` is a dtype, not a shared field (`ctm_cases:11`).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from paef_cli import fix_keeps_output
from cell_findings import SETUP, TRAIN, cell_findings

from paef_jupyter.model import CellRef, SourceUnit
from paef_jupyter.static.analyzer import analyze_units

REDTEAM = Path(__file__).resolve().parent.parent / "benchmarks" / "redteam"


def test_same_dtype_cast_keeps_the_view_a_move_compacts() -> None:
    """The fact behind item 1: on a device the move compacts, the same-dtype cast does not."""
    view = torch.zeros(4, 5)[:, :3]
    assert view.float() is view
    moved = torch.zeros(4, 5)[:, :3].float().to("meta")
    rewritten = torch.zeros(4, 5, device="meta")[:, :3].float()
    assert moved.stride() == (3, 1) and rewritten.stride() == (5, 1)
    casted = torch.zeros(4, 5, dtype=torch.long, device="meta")[:, :3].float()
    assert casted.stride() == (3, 1)  # a cast that changes the dtype copies compact: the rewrite is exact


def _cpu_then_move(source: str) -> list[tuple[int, bool]]:
    units = [SourceUnit(CellRef("p.py", None), source)]
    return [(f.line, f.fixable) for f in analyze_units(units, rules=["cpu-then-move"]).findings]


LOOP = "import torch\ndevice = 'cuda'\nfor step in range(3):\n    x = {}.to(device)\n"


@pytest.mark.parametrize("expr,fixable", [
    ("torch.zeros(4, 6 + step)[:, :3].float()", False),
    ("torch.zeros(4, 6 + step)[:, :3].double()", True),
    ("torch.arange(6 + step)[::2].long()", False),
    ("torch.arange(6 + step)[::2].float()", True),
    ("torch.arange(len(x) + step)[::2].float()", True),
    ("torch.full((4, 6 + step), 1.5)[:, 0].float()", False),
    ("torch.full((4, 6 + step), 1)[:, 0].float()", True),
    ("torch.ones(1, 6 + step).expand(3, 6 + step).float()", False),
    ("torch.ones(1, 6 + step, dtype=torch.half).expand(3, 6 + step).float()", True),
])
def test_a_cast_compacts_only_when_it_changes_a_known_dtype(expr: str, fixable: bool) -> None:
    assert _cpu_then_move(LOOP.format(expr)) == [(4, fixable)]


def test_a_changed_default_dtype_leaves_the_cast_unproved() -> None:
    source = "import torch\ntorch.set_default_dtype(torch.float64)\n" + LOOP.format(
        "torch.zeros(4, 6 + step)[:, :3].double()").split("\n", 1)[1]
    assert _cpu_then_move(source) == [(5, False)]


FIT = ("running = 0.0\ndef fit():\n    global running\n    for x, y in data:\n        loss = nn.functional.mse_loss(model(x), y)\n"
       "        opt.zero_grad()\n        loss.backward()\n        opt.step()\n        running += loss\n")


def _graph_retention(*cells: str) -> list[tuple[int | None, int, bool]]:
    return cell_findings("graph-retention", *cells)


@pytest.mark.parametrize("later", [
    ("running = torch.zeros(())\nprint(running)\n",),
    ("running: float = 0.0\nprint(running)\n",),
    ("running = 1.0\n", "print(running)\n"),
    ("running = 1.0\ndef show():\n    print(running)\nshow()\n",),
])
def test_a_later_cell_that_rebinds_the_total_first_keeps_the_detach(later: tuple[str, ...]) -> None:
    assert _graph_retention(SETUP, TRAIN, *later) == [(1, 7, True)]


@pytest.mark.parametrize("later", [
    ("print(running)\nrunning = 0.0\n",),                  # read before the rebinding
    ("running = running * 2\nprint(running)\n",),          # the rebinding reads the old value
    ("if True:\n    running = 0.0\nprint(running)\n",),    # rebound under an `if`: not at the top level
    ("def show():\n    print(running)\nrunning = 0.0\n", "show()\n"),  # a function defined before, called after
    ("kept = running\nrunning = 0.0\nprint(kept)\n",),     # kept under another name first
    ("print(running); running = 0.0\n",),                 # the same line, read first
])
def test_a_later_cell_reading_before_or_through_the_rebinding_refuses(later: tuple[str, ...]) -> None:
    assert _graph_retention(SETUP, TRAIN, *later) == [(1, 7, False)]


def test_a_rebinding_does_not_hide_a_function_that_fills_the_global_again() -> None:
    """`running = 0.0` then `fit()`: the function accumulates into the new global too."""
    found = _graph_retention(SETUP, FIT, "running = 0.0\nfit()\nprint(running)\n")
    assert [f for _, _, f in found] == [False]




@pytest.mark.parametrize("program", ["ctm_cases.py"])
def test_fix_keeps_the_output(tmp_path: Path, program: str) -> None:
    fix_keeps_output(tmp_path, REDTEAM / program)


TRAINER = '''import torch
from torch import nn
CACHE = {{}}
class Trainer:
    def __init__(self, model, val):
        self.model, self.val = model, val
        self.opt = torch.optim.SGD(model.parameters(), lr=0.1)
        self.kept = torch.zeros(())
    def evaluate(self):
        self.model.eval()
        total = 0.0
        for x, y in self.val:
            total = total + nn.functional.mse_loss(self.model(x), y)
        mean = total / len(self.val)
        {store}
        self.model.train()
    def penalty(self):
        return {getter}
    def step(self, x, y):
        loss = nn.functional.mse_loss(self.model(x), y)
        {use}
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
trainer = Trainer(nn.Linear(3, 1), [(torch.randn(4, 3), torch.randn(4, 1))])
for _ in range(2):
    trainer.evaluate()
    trainer.step(torch.randn(4, 3), torch.randn(4, 1))
'''


def _eval_wrapped(store: str, use: str) -> list[bool]:
    """(A getter returning the kept value, called by nobody the analysis sees, would count as
    handing it to unseen code: it returns 0.0 unless the case calls it.)"""
    source = TRAINER.format(store=store, use=use, getter="self.kept" if "penalty()" in use else "0.0")
    units = [SourceUnit(CellRef("p.py", None), source)]
    return [f.fixable for f in analyze_units(units, rules=["eval-without-no-grad"]).findings]


@pytest.mark.parametrize("store,use", [
    ("self.kept = mean", "loss = loss + self.kept"),
    ("self.kept = mean", "extra = self.kept * 0.1\n        loss = loss + extra"),
    ("self.kept = mean", "loss = loss + self.penalty()"),
    ("self.kept = mean", "parts = [loss]\n        parts.append(self.kept)\n        loss = sum(parts)"),
    ("scaled = mean * 2\n        CACHE['v'] = scaled", "loss = loss + CACHE['v']"),
    ("self.kept = mean", "torch.autograd.backward(self.kept)"),
])
def test_a_kept_value_followed_to_a_backward_keeps_the_loop(store: str, use: str) -> None:
    assert _eval_wrapped(store, use) == []


@pytest.mark.parametrize("store,use", [
    ("self.kept = mean", "print(float(self.kept))"),
    ("self.kept = mean", "best = self.kept.item()"),
    ("self.kept = mean", "if self.kept < 1.0:\n            pass"),
    ("self.kept = mean", "shown = f'{self.kept.item():.3f}'"),
    ("CACHE['v'] = mean", "print(CACHE['v'])"),
])
def test_a_kept_value_stored_outside_what_the_proof_follows_leaves_the_wrap_for_review(store: str, use: str) -> None:
    """Session 49 wrapped these automatically, reasoning from the reads it could see. The
    closed-world gate (`_graph_uses`, session 54) does not follow values stored on attributes or in
    globals: the loop is still reported, its wrap left to review. The last case shows why: the
    wrap would drop `grad_fn=<DivBackward0>` from the printed `CACHE['v']`."""
    assert _eval_wrapped(store, use) == [False]
