"""Red team 38 (blind, two waves) met 6 automatic rewrites on first contact, one harmful: list-to-tensor
rewrote `errs.append(float(x))` as `errs.append(x.detach())` inside a `@torch.jit.script` function
whose list is annotated `List[float]`; TorchScript refused the function and the program failed where
it was scripted (`rt38b_jit_scripted_totals`).

The category: every rule's proof is for Python's semantics, and code that `torch.jit` compiles
(statically typed from annotations and first assignments) or traces (host reads baked in as
constants) is not run by Python. An automatic edit inside a function or class that torch.jit compiles
or traces (decorated, handed to `torch.jit.script`/`trace` by this or another cell, a callee of such
code; an instance handed over makes every class of the unit count) is left to review, naming what
compiles it. `@torch.jit.ignore`/`@torch.jit.unused` functions, classes other than the one scripted,
and `torch.compile` (which keeps Python's semantics) stay automatic.
"""

from __future__ import annotations

import pytest
from redteam_units import REDTEAM, automatic_fixes, program_units, rule_findings, source_units

from paef_jupyter.api import analyze_units
from paef_jupyter.model import CellRef, SourceUnit


def test_blind_program_scripted_list_is_not_rewritten() -> None:
    found = rule_findings(program_units(REDTEAM / "rt38b_jit_scripted_totals.py"), "list-to-tensor")
    assert [f.line for f in found] == [27] and not automatic_fixes(found)
    assert "torch.jit" in found[0].fix.review and "@torch.jit.script" in found[0].fix.review


@pytest.mark.parametrize(("name", "line"), [("rt38b_jit_scripted_totals.py", 33), ("rt38_jit_scripted_helpers.py", 37)])
def test_blind_programs_scripted_factories_are_left_to_review(name: str, line: int) -> None:
    found = rule_findings(program_units(REDTEAM / name), "cpu-then-move")
    assert [f.line for f in found] == [line] and not automatic_fixes(found)


def test_blind_programs_outside_torch_jit_keep_their_rewrites() -> None:
    found = rule_findings(program_units(REDTEAM / "rt38_nb_dal_reloaded_split.ipynb"), "dict-as-list")
    # found outside torch.jit, as before; the conversions are review since red team 45: an empty selection of an int or nested column converts to another dtype and shape,
    # and the loop's slices are not proved non-empty
    assert len(found) == 2 and automatic_fixes(found) == []


PROGRAM = """{imports}
from typing import List

import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


{decorator}
def per_row(pred: torch.Tensor) -> torch.Tensor:
    errs: List[float] = []
    for i in range(pred.size(0)):
        errs.append(float(pred[i].pow(2).mean()))
    return torch.tensor(errs)


{after}
net = torch.nn.Linear(4, 4).to(device)
x = torch.randn(6, 4, device=device)
out = []
for step in range(3):
    out.append(per_row(net(x).detach()))
result = out
"""

REFUSED = [
    ("", "@torch.jit.script", ""),
    ("from torch import jit", "@jit.script", ""),
    ("from torch.jit import script", "@script", ""),
    ("import torch.jit as tj", "@tj.script", ""),
    ("", "", "per_row_ts = torch.jit.script(per_row)"),
    ("", "", "traced = torch.jit.trace(per_row, torch.randn(3, 4))"),
    ("", "", "@torch.jit.script\ndef twice(p: torch.Tensor) -> torch.Tensor:\n    return per_row(p) * 2.0\n"),
    ("", "", "class Head(torch.nn.Module):\n    def forward(self, p: torch.Tensor) -> torch.Tensor:\n"
             "        return per_row(p)\n\n\nhead = torch.jit.script(Head())\n"),
]

AUTOMATIC = [
    ("", "", ""),
    ("", "@torch.jit.ignore", ""),
    ("", "@torch.jit.unused", ""),
    ("", "", "loaded = torch.jit.load if False else None"),
    ("", "", "@torch.jit.script\ndef twice(p: torch.Tensor) -> torch.Tensor:\n    return p * 2.0\n"),
    ("", "", "class Head(torch.nn.Module):\n    def forward(self, p: torch.Tensor) -> torch.Tensor:\n"
             "        return p * 2.0\n\n\nhead = torch.jit.script(Head())\n"),
    ("", "", "compiled = torch.compile(per_row, backend='eager')"),
    ("import functools", "@functools.lru_cache(maxsize=None)", ""),
]


def _program(imports: str, decorator: str, after: str) -> str:
    return PROGRAM.format(imports=imports, decorator=decorator, after=after)


@pytest.mark.parametrize(("imports", "decorator", "after"), REFUSED)
def test_lists_torch_jit_compiles_or_traces_are_left_to_review(imports: str, decorator: str, after: str) -> None:
    found = rule_findings(source_units(_program(imports, decorator, after)), "list-to-tensor")
    assert found and not automatic_fixes(found)
    assert all("torch.jit" in f.fix.review for f in found)


@pytest.mark.parametrize(("imports", "decorator", "after"), AUTOMATIC)
def test_lists_python_runs_stay_automatic(imports: str, decorator: str, after: str) -> None:
    found = rule_findings(source_units(_program(imports, decorator, after)), "list-to-tensor")
    assert automatic_fixes(found)


def _cells(*texts: str) -> list[SourceUnit]:
    return [SourceUnit(CellRef("nb.ipynb", i), text) for i, text in enumerate(texts)]


CELL_DEF = """from typing import List
import torch
device = "cuda" if torch.cuda.is_available() else "cpu"

def per_row(pred: torch.Tensor) -> torch.Tensor:
    errs: List[float] = []
    for i in range(pred.size(0)):
        errs.append(float(pred[i].pow(2).mean()))
    return torch.tensor(errs)
"""

CELL_LOOP = """net = torch.nn.Linear(4, 4).to(device)
x = torch.randn(6, 4, device=device)
out = []
for step in range(3):
    out.append(per_row(net(x).detach()))
"""


@pytest.mark.parametrize(("later", "automatic"), [
    ("per_row_ts = torch.jit.script(per_row)", False),  # a later cell scripts the earlier cell's function
    ("@torch.jit.script\ndef twice(p: torch.Tensor) -> torch.Tensor:\n    return per_row(p) * 2.0\n", False),  # calls it
    ("@torch.jit.script\ndef twice(p: torch.Tensor) -> torch.Tensor:\n    return p * 2.0\n", True),
    ("model = torch.jit.script(net)", True),  # an instance of a torch class: no class of cell 0 is compiled
    ("print(len(out))", True),
])
def test_a_later_cell_scripting_an_earlier_cells_function(later: str, automatic: bool) -> None:
    report = analyze_units(_cells(CELL_DEF, CELL_LOOP, later), rules=["list-to-tensor"])
    found = [f for f in report.findings if f.ref.cell == 0]
    assert found and bool(automatic_fixes(found)) is automatic


def test_probe_traced_helper_is_left_to_review() -> None:
    """rt38p_l2t_traced_scores (not blind): on the start code the rewrite was automatic and the exported
    trace, which had baked the example's scores in as constants, recorded the tensor ops live instead
    (printed scores changed)."""
    found = rule_findings(program_units(REDTEAM / "rt38p_l2t_traced_scores.py"), "list-to-tensor")
    assert [f.line for f in found] == [20] and not automatic_fixes(found)
    assert "torch.jit.trace" in found[0].fix.review
