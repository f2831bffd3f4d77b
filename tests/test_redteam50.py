"""Red team 50 (blind, 10 programs on optimisation mechanics written by hand: custom `Optimizer` subclasses,
`torch._foreach_*` updates, SAM / Lookahead / evolution strategies, hand learning-rate schedules, accumulation,
clipping, gradient penalties, MAML, EMA teachers, alternating GAN phases) met 9 automatic rewrites on first
contact and none changed a program's meaning (scorer on the CPU, every diff read for the GPU); 6 probes after
first contact (rt50p_*, not blind) met no automatic rewrite. Nothing was fixed; these tests pin what held, so
that a later change loosening one of these proofs fails here:

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

import pytest
from redteam_units import REDTEAM, program_units, rule_findings

from paef_jupyter.api import analyze_source
from paef_jupyter.fix import apply_findings
from paef_jupyter.model import CellRef


def _automatic(found: list) -> list:
    return [f for f in found if f.fix is not None and f.fix.automatic]


def _fixed(name: str, rule: str) -> str:
    text = (REDTEAM / name).read_text()
    report = analyze_source(text, CellRef(name), rules=[rule])
    after, _applied, skipped = apply_findings(text, report.findings)
    assert not skipped
    return after


def test_redundant_tensor_leaves_a_ramp_changed_by_an_inplace_module_to_review() -> None:
    found = rule_findings(program_units(REDTEAM / "rt50_rt_hand_optimizers.py"), "redundant-tensor")
    ramp = [f for f in found if "torch.linspace(-1.0, 1.0, 5)" in f.message]
    assert ramp and _automatic(ramp) == []


def test_redundant_tensor_hoists_a_config_tensor_only_out_of_the_loop_that_keeps_the_config() -> None:
    after = _fixed("rt50_rt_lr_by_hand.py", "redundant-tensor")
    assert "for epoch in range(3):\n    full_const = torch.full((1,), cfg['wd'])\n    for i in range(0, 60, 12):" in after
    assert "rate = torch.tensor([ann.lr], device=device)" in after


@pytest.mark.parametrize("name", ["rt50p_rt_callback_mutations.py", "rt50p_rt_prefix_aliases.py",
                                  "rt50p_rt_param_group_alias.py", "rt50p_rt_group_dicts_handed.py"])
def test_redundant_tensor_hoists_nothing_changed_by_library_driven_code_or_aliases(name: str) -> None:
    assert _automatic(rule_findings(program_units(REDTEAM / name), "redundant-tensor")) == []


def test_list_to_tensor_converts_no_item_list_of_state_changed_in_place_by_library_code() -> None:
    found = rule_findings(program_units(REDTEAM / "rt50p_l2t_state_counters.py"), "list-to-tensor")
    assert _automatic(found) == []


@pytest.mark.parametrize("name", ["rt50_nb_ema_teacher.ipynb", "rt50_nb_gan_phases.ipynb"])
def test_no_grad_wrap_is_not_automatic_for_calibration_or_pool_filling_passes(name: str) -> None:
    assert _automatic(rule_findings(program_units(REDTEAM / name), "eval-without-no-grad")) == []
