"""Red team 51 (blind, 10 programs: 3 projects, 2 notebooks, aimed at evaluation, metrics, logging and
decisions taken on read values) met 10 automatic rewrites on first contact, none harmful; 8 probes
written after first contact (not blind) met 2, none harmful. No rule was changed: these tests pin what
held, so that a later widening that breaks it fails here.

- eval-without-no-grad: an evaluation helper whose summed loss is RETURNED and back-propagated by the
  caller (a DARTS architecture step), and a scoring pass whose per-sample losses the caller mines and
  back-propagates, stay unwrapped; the plain accuracy helper beside them is wrapped. A handed model
  whose layer (another module) memoises a parameter-derived weight (on `self`, in a module-level
  table, in a list attribute) keeps the handed evaluation for review.
- host-sync: a running total read inside the loop only through the namespace (`format_map(locals())`,
  `% vars()`, `Template.substitute(locals())`, `globals()`, `eval` of a configured expression,
  `sys._getframe(1).f_locals`) is never rewritten.
- list-to-tensor: with the default dtype set by an IMPORTED local module, the rebuilt tensor is cast to
  `torch.get_default_dtype()`; the `torch.tensor(x.item())` snapshot beside it is left alone.

One defect found on the way (not a meaning change): eval-without-no-grad raises a KeyError on a
notebook whose training loop calls a function of an EARLIER cell that switches the model to eval
(`rt51_nb_eval_modes.ipynb`, cell 2): the rule loses its findings in that cell. Pinned below as an
expected failure (strict): it passes once the rule reads only its own unit's functions there.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from redteam_units import REDTEAM, program_units, rule_findings

from paef_jupyter.api import analyze, analyze_units
from paef_jupyter.model import CellRef, SourceUnit


def _module(path: Path) -> list[SourceUnit]:
    return [SourceUnit(CellRef(str(path), None), path.read_text())]


def _fixable(path: Path, rule: str) -> dict[int, bool]:
    units = _module(path) if path.parent != REDTEAM else program_units(path)
    return {f.line: f.fixable for f in rule_findings(units, rule)}


def test_a_returned_validation_loss_is_not_wrapped_but_the_accuracy_helper_is() -> None:
    found = _fixable(REDTEAM / "rt51_proj_darts_search" / "search.py", "eval-without-no-grad")
    assert found == {12: False, 24: True}


def test_a_scoring_pass_whose_losses_the_caller_back_propagates_is_not_wrapped() -> None:
    found = _fixable(REDTEAM / "rt51_proj_hard_mining" / "engine.py", "eval-without-no-grad")
    assert found.get(12) is False
    assert not any(found.values())


@pytest.mark.parametrize("project", ["rt51p_proj_forward_cache", "rt51p_proj_forward_global_cache",
                                     "rt51p_proj_forward_list_state"])
def test_a_handed_model_memoising_a_weight_out_of_sight_is_for_review(project: str) -> None:
    found = _fixable(REDTEAM / project / "evaluate.py", "eval-without-no-grad")
    assert found and not any(found.values())


def test_a_handed_metric_keeping_the_outputs_leaves_the_loop_alone() -> None:
    found = _fixable(REDTEAM / "rt51p_proj_metric_keeps_preds" / "evaluate.py", "eval-without-no-grad")
    assert not any(found.values())


@pytest.mark.parametrize("name", ["rt51p_hs_locals_format.py", "rt51p_hs_config_logger.py"])
def test_totals_read_through_the_namespace_are_not_rewritten(name: str) -> None:
    found = _fixable(REDTEAM / name, "host-sync")
    assert found and not any(found.values())


def test_the_list_of_values_dumped_through_vars_is_not_rebuilt() -> None:
    found = _fixable(REDTEAM / "rt51p_hs_locals_format.py", "list-to-tensor")
    assert found and not any(found.values())


def test_the_first_contact_running_totals_read_after_the_loop_are_rewritten() -> None:
    """Near misses of the probes: the same totals read only after the loop stay automatic."""
    assert _fixable(REDTEAM / "rt51_hs_running_decisions.py", "host-sync").get(43) is True
    assert _fixable(REDTEAM / "rt51_proj_darts_search" / "main.py", "host-sync") == {36: True}


def _edits(finding) -> str:
    return "".join(e.text for e in finding.fix.edits)


def _project_findings(path: Path, rule: str) -> list:
    """One rule's findings on a file or notebook read as `paef fix` reads it (its local modules too)."""
    if path.suffix == ".ipynb":
        cells = json.loads(path.read_text())["cells"]
        units = [SourceUnit(CellRef(str(path), i), "".join(c["source"])) for i, c in enumerate(cells)
                 if c["cell_type"] == "code"]
    else:
        units = _module(path)
    return list(analyze(units, rules=[rule], follow_imports=True).findings)


def test_a_default_dtype_set_by_an_imported_module_is_kept_by_the_rebuilt_list() -> None:
    path = REDTEAM / "rt51p_proj_default_dtype_import" / "main.py"
    lists = _project_findings(path, "list-to-tensor")
    assert [f.fixable for f in lists] == [True]
    assert "get_default_dtype()" in _edits(lists[0])
    assert not any(f.fixable for f in _project_findings(path, "ping-pong"))


def test_the_probe_notebook_importing_its_settings_module_in_cell_0_is_no_longer_rebuilt_in_float32() -> None:
    """The probe found harmful: the notebook's cell 0 imports config.py (float64 default at import);
    cell 1's snapshot and list were rebuilt in float32."""
    path = REDTEAM / "rt51p_proj_nb_default_dtype" / "analysis.ipynb"
    assert not any(f.fixable for f in _project_findings(path, "ping-pong"))
    lists = _project_findings(path, "list-to-tensor")
    assert lists and all("get_default_dtype()" in _edits(f) for f in lists if f.fixable)


_CELL_1 = """best = None
for step in range(3):
    loss = (model(x) - y).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    last = torch.tensor(loss.item())
print(last.dtype)
"""
_CELL_0 = """import torch
import torch.nn as nn
{imports}
model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = torch.randn(4, 3), torch.randn(4, 1)
"""


def _notebook_fixable(tmp_path: Path, imports: str, modules: dict[str, str], rule: str = "ping-pong") -> list[bool]:
    for name, text in modules.items():
        (tmp_path / name).write_text(text)
    nb = {"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": src}
                    for src in (_CELL_0.format(imports=imports), _CELL_1)],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (tmp_path / "nb.ipynb").write_text(json.dumps(nb))
    return [f.fixable for f in _project_findings(tmp_path / "nb.ipynb", rule) if f.ref.cell == 1]


_FLOAT64 = "import torch\n\nSEED = 1\ntorch.set_default_dtype(torch.float64)\n"


@pytest.mark.parametrize("imports, modules", [
    ("import config", {"config.py": _FLOAT64}),
    ("import config as cfg", {"config.py": _FLOAT64}),
    ("from config import SEED", {"config.py": _FLOAT64}),
    ("import utils", {"utils.py": "import config\n\nSEED = config.SEED\n", "config.py": _FLOAT64}),
    ("import config", {"config.py": "import torch\n\nuse = torch.set_default_dtype\nuse(torch.float64)\n"}),
    ("import config", {"config.py": "import torch\n\ntorch.set_default_device('cpu')\n"}),
    ("import config", {"config.py": "import torch\n\ntorch.Tensor.item = lambda t: 0.5\n"}),
])
def test_a_module_imported_by_an_earlier_cell_that_sets_torch_defaults_refuses_the_snapshot(
        tmp_path: Path, imports: str, modules: dict[str, str]) -> None:
    assert _notebook_fixable(tmp_path, imports, modules) == [False]


@pytest.mark.parametrize("imports, modules", [
    ("", {}),
    ("import config", {"config.py": "import torch\n\nSEED = 1\nDTYPE = torch.get_default_dtype()\n"}),
    ("import config", {"config.py": "import torch\n\ntorch.set_printoptions(precision=8)\n"}),
    ("import config", {"config.py": "import torch\n\nLR = 0.1\nX = torch.zeros(3, dtype=torch.float64)\n"}),
    ("import config", {"config.py": "SEED = 1\n"}),
])
def test_a_module_imported_by_an_earlier_cell_that_sets_nothing_keeps_the_snapshot_automatic(
        tmp_path: Path, imports: str, modules: dict[str, str]) -> None:
    assert _notebook_fixable(tmp_path, imports, modules) == [True]


def test_the_rule_reads_a_notebook_whose_loop_calls_an_earlier_cells_eval_switch() -> None:
    report = analyze_units(program_units(REDTEAM / "rt51_nb_eval_modes.ipynb"), rules=["eval-without-no-grad"])
    assert not report.errors
