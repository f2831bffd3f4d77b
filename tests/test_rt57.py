"""Red team 57 (blind, 10 programs: 3 projects, 2 notebooks, aimed at the bookkeeping around a training
loop) met 2 automatic rewrites on first contact, none harmful; 5 probes written after first contact
(not blind) met 2, none harmful. No rewrite was changed: these tests pin what held, so that a later
widening that breaks it fails here.

One message was corrected (no rewrite changes): eval-without-no-grad told an UNMARKED loop (no
`.eval()`, no evaluation name) in a function nobody in its file calls that "nothing it computes reaches
a backward", while the importer back-propagates what it returns (a full-batch objective summed by a
helper of a local module for an LBFGS closure). The finding stays for review; its headline now says
only that this file shows no backward and that code outside it may take one.
"""

from __future__ import annotations

import pytest
from redteam_units import REDTEAM, path_units, rule_findings, source_units


def _found(name: str, rule: str) -> dict[tuple[int | None, int], bool]:
    return {(f.ref.cell, f.line): f.fixable for f in rule_findings(path_units(REDTEAM / name), rule)}


def test_the_validation_loop_between_epochs_is_wrapped_and_nothing_else_there() -> None:
    assert _found("rt57_hs_meters_plateau.py", "eval-without-no-grad") == {(None, 74): True}


def test_per_step_reads_feeding_a_meter_a_spike_test_and_a_log_line_are_not_rewritten() -> None:
    found = _found("rt57_hs_meters_plateau.py", "host-sync")
    assert found and not any(found.values())


def test_the_constant_eye_is_hoisted_but_the_lr_dependent_decay_is_not() -> None:
    assert _found("rt57_rt_warmup_by_hand.py", "redundant-tensor") == {(None, 37): True}


def test_the_best_loss_snapshot_is_not_rewritten() -> None:
    found = _found("rt57_pp_best_state_refs.py", "ping-pong")
    assert not any(found.values())


@pytest.mark.parametrize("rule", ["graph-retention", "eval-without-no-grad"])
def test_an_accumulated_graph_and_kept_evaluation_losses_that_are_back_propagated_stay(rule: str) -> None:
    assert not any(_found("rt57_nb_tracker_accum.ipynb", rule).values())


@pytest.mark.parametrize("rule", ["eval-without-no-grad", "list-to-tensor", "record-buffer", "host-sync"])
def test_a_rerun_notebook_with_live_weight_references_and_a_saliency_cell_is_left_alone(rule: str) -> None:
    assert not any(_found("rt57_nb_history_rerun.ipynb", rule).values())


def test_a_transformer_evaluation_loop_is_only_for_review() -> None:
    """nn.TransformerEncoder's grad-off fast path zeroes padded positions: no_grad changes the mean."""
    assert _found("rt57p_ev_transformer_fastpath.py", "eval-without-no-grad") == {(None, 49): False}


def test_narrow_integer_totals_are_refused_and_the_float_totals_beside_them_rewritten() -> None:
    found = _found("rt57p_hs_narrow_int_totals.py", "host-sync")
    assert found == {(None, 34): False, (None, 35): False, (None, 37): True, (None, 38): True}


@pytest.mark.parametrize("name, rule", [("rt57p_rt_factory_state_reads.py", "redundant-tensor"),
                                        ("rt57p_nb_eval_escapes.ipynb", "eval-without-no-grad")])
def test_stateful_factories_and_escaping_evaluation_outputs_are_not_rewritten(name: str, rule: str) -> None:
    assert not any(_found(name, rule).values())


def test_objectives_returned_to_an_importer_are_not_said_to_reach_no_backward() -> None:
    path = REDTEAM / "rt57p_proj_helper_objective" / "objectives.py"
    found = {f.line: f for f in rule_findings(path_units(path), "eval-without-no-grad")}
    for line in (20, 27):
        assert not found[line].fixable
        assert "reaches a backward" not in found[line].message
        assert "code outside it may take one" in found[line].message
    assert "evaluation loop" in found[35].message  # the accuracy helper (`.eval()`): unchanged


_CALLED_HERE = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

model = nn.Linear(4, 2)
batches = [(torch.randn(8, 4), torch.randint(0, 2, (8,))) for _ in range(3)]


def objective(model, batches):
    total = 0.0
    for xb, yb in batches:
        total += F.cross_entropy(model(xb), yb)
    return total
'''


def test_near_miss_the_same_helper_whose_caller_here_back_propagates_stays_silent() -> None:
    text = _CALLED_HERE + "\nobjective(model, batches).backward()\n"
    assert rule_findings(source_units(text), "eval-without-no-grad") == []


def test_near_miss_a_helper_called_here_only_for_numbers_keeps_the_plain_message() -> None:
    text = _CALLED_HERE + "\nprint(objective(model, batches).item())\n"
    found = rule_findings(source_units(text), "eval-without-no-grad")
    assert len(found) == 1 and "nothing it computes reaches a backward" in found[0].message


def test_near_miss_a_helper_nobody_here_calls_gets_the_hedged_message() -> None:
    found = rule_findings(source_units(_CALLED_HERE), "eval-without-no-grad")
    assert len(found) == 1 and not found[0].fixable and "code outside it may take one" in found[0].message
