"""Red team 32b (blind, on cpu-function, cpu-then-move, ping-pong, dict-as-list, operator-fusion): what
fell at first contact.

- cpu-function: a NumPy helper of a notebook's first cell reads knobs (a config dict's item, a
  module-level power) that a schedule function of the same cell changes; the training cell calls
  both every epoch, and the loop's changes did not include what an earlier cell's function writes;
- cpu-then-move: a name that only mentions a device (`gpu_dtype`, `dev_scores`) taken for one,
  and `.to(**device_kwargs)` read as a device argument;
- ping-pong: `np.argmax` of a boolean mask (the first True) translated to `torch.argmax`, which
  refuses bool tensors.
`benchmarks/results/redteam32b.md` has the numbers.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from paef_cli import fix_keeps_output

from paef_jupyter.api import analyze_path
from paef_jupyter.model import CellRef, SourceUnit
from paef_jupyter.static.analyzer import analyze_units

REDTEAM = Path(__file__).resolve().parent.parent / "benchmarks" / "redteam"
# Harmful at first contact on 871f125 (wave 1).
PROGRAMS = ["rt32b_ctm_device_like_names.py", "rt32b_pp_first_hit_masks.py"]


@pytest.mark.parametrize("program", PROGRAMS)
def test_fix_keeps_the_output(tmp_path: Path, program: str) -> None:
    fix_keeps_output(tmp_path, REDTEAM / program)


def test_earlier_cell_schedule_stops_the_hoist_in_the_notebook() -> None:
    report = analyze_path(str(REDTEAM / "rt32b_nb_cf_distill_schedule.ipynb"))
    assert [f.line for f in report.findings if f.rule == "cpu-function" and f.fixable] == []


HELPERS = ("import functools\nimport numpy as np\nCONFIG = {'t': 4.0}\nPOWER = 1.0\nLOG = []\n\n\n"
           "def soften(s):\n    return np.exp(s / CONFIG['t'])\n\n\n"
           "def prior(c):\n    return c ** POWER / (c ** POWER).sum()\n\n\n"
           "def anneal(f):\n    CONFIG['t'] = CONFIG['t'] * f\n\n\n"
           "def sharpen():\n    global POWER\n    POWER = POWER + 0.5\n\n\n"
           "def cool():\n    CONFIG.update(t=1.0)\n\n\n"
           "def through():\n    anneal(0.5)\n\n\n"
           "def note(x):\n    LOG.append(x)\n    return x\n\n\n"
           "def lookup(s):\n    return np.exp(s / CONFIG.get('t', 1.0))\n\n\n"
           "sched = anneal\nhalve = functools.partial(anneal, 0.5)\n")


@pytest.mark.parametrize(("schedule", "helper", "fixable"), [
    ("anneal(0.5)", "soften(raw)", False),  # an item of a global the helper reads
    ("sharpen()", "prior(raw)", False),  # a global rebound through `global`
    ("cool()", "soften(raw)", False),  # a method changing the global
    ("through()", "soften(raw)", False),  # through another earlier-cell function
    ("sched(0.5)", "soften(raw)", False),  # the function under another name (a probe after the fix)
    ("halve()", "soften(raw)", False),  # a `functools.partial` of it
    # Changes what the helper does not read: the call is invariant, but `anneal` (not called here)
    # changes `CONFIG` in place, so the closed-world proof (`static/outside_values.py`, session 54)
    # leaves the hoist for review rather than automatic.
    ("sharpen()", "soften(raw)", "review"),
    ("note(3)", "soften(raw)", "review"),
    # `CONFIG.get` of a dict only reads it: the helper's own lookup is no change (merge 53: a
    # vocabulary lookup made the helper's call loop-variant); a change by another function still is.
    ("note(3)", "lookup(raw)", "review"),
    ("anneal(0.5)", "lookup(raw)", False),
])
def test_earlier_cell_function_changing_a_global_read_by_the_helper(schedule: str, helper: str, fixable: bool | str) -> None:
    loop = f"raw = np.arange(1.0, 5.0)\nout = []\nfor epoch in range(3):\n    {schedule}\n    f = {helper}\n    out.append(f.sum())\n"
    units = [SourceUnit(CellRef("nb.ipynb", 0), HELPERS), SourceUnit(CellRef("nb.ipynb", 1), loop)]
    found = [f for f in analyze_units(units, rules=["cpu-function"]).findings if f.ref.cell == 1]
    if fixable == "review":
        assert [f.fixable for f in found] == [False] and "`CONFIG`" in found[0].fix.review
        return
    assert [f.fixable for f in found] == ([True] if fixable else [])  # varying: no finding at all


MODEL = ("import numpy as np\nimport torch\nfrom torch import nn\nmodel = nn.Linear(3, 2)\n"
         "opt = torch.optim.SGD(model.parameters(), lr=0.1)\nW = model.weight\n")


@pytest.mark.parametrize(("bound", "fixable"), [
    ("w = model.weight.detach().cpu().numpy()", False),  # on the CPU, the parameter's own memory
    ("w = W.detach().numpy()", False),  # through another earlier name
    ("w = np.asarray(model.weight.data)", False),
    ("w = model.weight.detach().numpy().copy()", True),  # a copy: unchanged by the step
    ("w = np.ones((2, 3))", True),
])
def test_earlier_cell_view_of_a_parameter_the_loop_steps(bound: str, fixable: bool) -> None:
    loop = ("x = torch.randn(4, 3)\nout = []\nfor epoch in range(3):\n    loss = model(x).pow(2).mean()\n"
            "    opt.zero_grad()\n    loss.backward()\n    opt.step()\n    n = np.linalg.norm(w, axis=1)\n    out.append(n.sum())\n")
    units = [SourceUnit(CellRef("nb.ipynb", 0), MODEL + bound + "\n"), SourceUnit(CellRef("nb.ipynb", 1), loop)]
    found = [f for f in analyze_units(units, rules=["cpu-function"]).findings if f.ref.cell == 1]
    assert [f.fixable for f in found] == ([True] if fixable else [])
