"""Red team 50 (blind, 10 programs on optimisation mechanics written by hand: custom `Optimizer` subclasses,
`torch._foreach_*` updates, SAM / Lookahead / evolution strategies, hand learning-rate schedules, accumulation,
clipping, gradient penalties, MAML, EMA teachers, alternating GAN phases) met 9 automatic rewrites on first
contact and none changed a program's meaning (scorer on the CPU, every diff read for the GPU). Of 6 probes after
first contact (rt50p_*, not blind), 5 met no automatic rewrite and one found list-to-tensor harmful in a module
fixed on its own (`paef fix scoring.py`): the project's entry script sets `torch.set_default_dtype(torch.float64)`
and calls the module's helper, whose `torch.tensor(<.item() losses>)` then builds float64, while the rewrite's
`torch.stack(...).float()` built float32. Fixed by category: a module fixed on its own whose project's other files
change torch's default dtype (list-to-tensor review, ping-pong refusal) or default device (list-to-tensor,
ping-pong, record-buffer) keeps its conversions. The rest pins what held, so that a later change loosening one of
these proofs fails here:

- redundant-tensor leaves to review a per-step tensor that an in-place module (`nn.LeakyReLU(inplace=True)`)
  changes, and rates read from an object a callback list anneals; it hoists a config-built tensor only out of
  the loop inside which the config is unchanged (`cfg.update` at the end of each epoch);
- redundant-tensor hoists nothing that code run by a library call changes (an LBFGS closure, an optimizer step
  post-hook, `model.apply`), nothing whose chain after the constant prefix may return the same storage
  (`.to(t)`, `.view`, `.float()`) and is changed in place, and nothing built from param-group dicts that a
  scheduler or a helper writing through `opt.param_groups` changes;
- list-to-tensor converts no `.item()` list of tensors that library code changes in place after the read
  (Adam's `state['step']`, BatchNorm's running statistics);
- eval-without-no-grad wraps neither a calibration pass folding features into a centre with `mul_`/`add_` nor a
  sampling loop filling a pool the next cell back-propagates through.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from redteam_units import REDTEAM, automatic_fixes, fixed_program, program_units, rule_findings

from paef_jupyter.model import CellRef, SourceUnit


def test_redundant_tensor_leaves_a_ramp_changed_by_an_inplace_module_to_review() -> None:
    found = rule_findings(program_units(REDTEAM / "rt50_rt_hand_optimizers.py"), "redundant-tensor")
    ramp = [f for f in found if "torch.linspace(-1.0, 1.0, 5)" in f.message]
    assert ramp and automatic_fixes(ramp) == []


def test_redundant_tensor_hoists_a_config_tensor_only_out_of_the_loop_that_keeps_the_config() -> None:
    after = fixed_program("rt50_rt_lr_by_hand.py", "redundant-tensor")
    assert "for epoch in range(3):\n    full_const = torch.full((1,), cfg['wd'])\n    for i in range(0, 60, 12):" in after
    assert "rate = torch.tensor([ann.lr], device=device)" in after


@pytest.mark.parametrize("name", ["rt50p_rt_callback_mutations.py", "rt50p_rt_prefix_aliases.py",
                                  "rt50p_rt_param_group_alias.py", "rt50p_rt_group_dicts_handed.py"])
def test_redundant_tensor_hoists_nothing_changed_by_library_driven_code_or_aliases(name: str) -> None:
    assert automatic_fixes(rule_findings(program_units(REDTEAM / name), "redundant-tensor")) == []


def test_list_to_tensor_converts_no_item_list_of_state_changed_in_place_by_library_code() -> None:
    found = rule_findings(program_units(REDTEAM / "rt50p_l2t_state_counters.py"), "list-to-tensor")
    assert automatic_fixes(found) == []


@pytest.mark.parametrize("name", ["rt50_nb_ema_teacher.ipynb", "rt50_nb_gan_phases.ipynb"])
def test_no_grad_wrap_is_not_automatic_for_calibration_or_pool_filling_passes(name: str) -> None:
    assert automatic_fixes(rule_findings(program_units(REDTEAM / name), "eval-without-no-grad")) == []


# --- the probe's category: torch's defaults set by another file of the project of a module fixed on its own

_SCORING = '''import torch
import torch.nn.functional as F


def score_tasks(model, tasks, device):
    scores = []
    for x, y in tasks:
        pred = model(x.to(device))
        scores.append(F.mse_loss(pred, y.to(device)).item())
    return torch.tensor(scores)


def snapshot(tasks, device):
    snaps = []
    for x, _ in tasks:
        h = torch.ones(3, device=device) * x.sum().item()
        snaps.append(torch.tensor(h.tolist()))
    return snaps
'''
_MAIN = '''import torch
import torch.nn as nn

from scoring import score_tasks, snapshot

{setup}
model = nn.Linear(3, 1)
tasks = [(torch.randn(4, 3), torch.randn(4, 1))]
print(score_tasks(model, tasks, 'cpu'), snapshot(tasks, 'cpu'))
'''
_DTYPE_FIRING = {
    "set_default_dtype": "torch.set_default_dtype(torch.float64)",
    "set_default_tensor_type": "torch.set_default_tensor_type(torch.DoubleTensor)",
    "setter_looked_up_by_string": "getattr(torch, 'set_default_' + 'dtype')(torch.float64)",
    "setter_in_a_helper": "def use_float64():\n    torch.set_default_dtype(torch.float64)\n\n\nuse_float64()",
}
_DEVICE_FIRING = {
    "set_default_device": "torch.set_default_device('cpu')",
    "default_device_block": "with torch.device('cpu'):\n    pass",
}
_SILENT = {
    "no_setter": "",
    "explicit_float64_model": "model64 = nn.Linear(3, 1, dtype=torch.float64)",
    "default_dtype_only_read": "print(torch.get_default_dtype(), torch.get_default_device())",
    "other_global_settings": "torch.set_num_threads(1)\ntorch.set_printoptions(precision=10)\ntorch.manual_seed(0)",
    "grad_mode_setter": "torch.set_grad_enabled(True)",
    "anomaly_and_determinism": "torch.autograd.set_detect_anomaly(False)\ntorch.use_deterministic_algorithms(False)",
    "a_device_object_not_a_block": "dev = torch.device('cpu')",
}


def _project_fixability(tmp_path: Path, setup: str, rule: str) -> list[bool]:
    (tmp_path / "scoring.py").write_text(_SCORING)
    (tmp_path / "main.py").write_text(_MAIN.format(setup=setup))
    path = tmp_path / "scoring.py"
    units = [SourceUnit(CellRef(str(path), None), path.read_text())]
    return [f.fixable for f in rule_findings(units, rule)]


@pytest.mark.parametrize("name", sorted(_DTYPE_FIRING))
def test_a_default_dtype_set_by_an_importer_sends_the_joined_floats_to_review(tmp_path: Path, name: str) -> None:
    assert _project_fixability(tmp_path, _DTYPE_FIRING[name], "list-to-tensor") == [False]
    assert True not in _project_fixability(tmp_path, _DTYPE_FIRING[name], "ping-pong")  # a hint or silence


@pytest.mark.parametrize("name", sorted(_DEVICE_FIRING))
def test_a_default_device_set_by_an_importer_sends_the_joined_floats_to_review(tmp_path: Path, name: str) -> None:
    assert _project_fixability(tmp_path, _DEVICE_FIRING[name], "list-to-tensor") == [False]


@pytest.mark.parametrize("name", sorted(_SILENT))
def test_an_importer_that_leaves_the_defaults_alone_keeps_the_rewrites(tmp_path: Path, name: str) -> None:
    assert _project_fixability(tmp_path, _SILENT[name], "list-to-tensor") == [True]
    assert _project_fixability(tmp_path, _SILENT[name], "ping-pong") == [True]


def test_a_setter_in_a_file_that_does_not_import_the_module_is_still_read(tmp_path: Path) -> None:
    # main.py imports scoring.py; a third file sets float64 and main may run it (`import setup64`)
    (tmp_path / "setup64.py").write_text("import torch\ntorch.set_default_dtype(torch.float64)\n")
    assert _project_fixability(tmp_path, "import setup64", "list-to-tensor") == [False]


def test_a_module_nobody_imports_is_not_read_against_its_folder(tmp_path: Path) -> None:
    (tmp_path / "other.py").write_text("import torch\ntorch.set_default_dtype(torch.float64)\n")
    path = tmp_path / "scoring.py"
    path.write_text(_SCORING)
    units = [SourceUnit(CellRef(str(path), None), path.read_text())]
    assert [f.fixable for f in rule_findings(units, "list-to-tensor")] == [True]


def test_the_probe_projects_scores_are_no_longer_joined_automatically() -> None:
    path = REDTEAM / "rt50p_proj_default_dtype" / "scoring.py"
    units = [SourceUnit(CellRef(str(path), None), path.read_text())]
    assert automatic_fixes(rule_findings(units, "list-to-tensor")) == []
