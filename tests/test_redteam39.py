"""Red team 39 (blind, two waves, 15 programs) met 10 automatic rewrites on first contact and none
changed a program's meaning (scorer on the CPU, every diff read for the GPU). Nothing was fixed; these
tests pin what held, so that a later change that loosens one of these proofs fails here:

- list-to-tensor and ping-pong copy (`.clone()`) a value the program may change in place after it was
  read (`loss /= k` after `losses.append(loss.item())`, a preallocated `out=` buffer, an EMA teacher's
  weight updated with `mul_`/`add_`), and take a fresh reduction as it is;
- eval-without-no-grad wraps no loop whose model's forward calls `register_hook` / `retain_grad()`
  (both raise under `no_grad`);
- redundant-tensor hoists no per-batch PGD perturbation (`requires_grad` assigned, `.grad` read);
- graph-retention leaves a summed loss saved with `torch.save` to review;
- dict-as-list hoists a column only where its rows are not edited inside the loop (loop variable,
  helper, alias of a row);
- host-sync accumulates automatically only `*` and `/` of proved Python numbers (not `**`, `abs`,
  `math.sqrt`, `%`, `//`, unary minus);
- cpu-then-move leaves window functions and generator-driven factories as hints.
"""

from __future__ import annotations

import pytest
from redteam_units import REDTEAM, automatic_fixes, fixed_program, program_units, rule_findings

from paef_jupyter.model import SourceUnit


def test_list_to_tensor_copies_a_loss_scaled_in_place_after_it_was_logged() -> None:
    after = fixed_program("rt39_l2t_inplace_div_accum.py", "list-to-tensor")
    assert "losses.append(loss.detach().clone())" in after
    assert "loss /= accum_steps" in after


def test_list_to_tensor_copies_a_view_of_a_reused_buffer_and_not_a_fresh_mean() -> None:
    after = fixed_program("rt39_l2t_out_buffer.py", "list-to-tensor")
    assert "first_scores.append(buf[0, 0].detach().clone())" in after
    assert "pos_fracs.append(buf[:, 1].gt(0).float().mean().detach())" in after


def test_ping_pong_copies_a_snapshot_of_a_weight_updated_in_place() -> None:
    after = fixed_program("rt39_pp_snapshot_same_dtype.py", "ping-pong")
    assert "teacher.weight.detach().contiguous().clone().to(torch.float32).cpu()" in after


@pytest.mark.parametrize("name", ["rt39_nb_ev_gradcam_hook.ipynb", "rt39b_ev_retain_grad_forward.py"])
def test_no_grad_wrap_is_not_automatic_where_the_forward_registers_hooks(name: str) -> None:
    assert automatic_fixes(rule_findings(program_units(REDTEAM / name), "eval-without-no-grad")) == []


def test_the_same_validation_loop_is_wrapped_once_the_forward_keeps_no_grad_hook() -> None:
    """The control: what keeps `rt39b_ev_retain_grad_forward` unwrapped is the `retain_grad()` call."""
    units = [SourceUnit(u.ref, u.text.replace("        h.retain_grad()\n", ""))
             for u in program_units(REDTEAM / "rt39b_ev_retain_grad_forward.py")]
    assert [f.line for f in automatic_fixes(rule_findings(units, "eval-without-no-grad"))] == [41]


def test_per_batch_pgd_perturbation_is_not_hoisted() -> None:
    assert automatic_fixes(rule_findings(program_units(REDTEAM / "rt39_rt_pgd_delta.py"), "redundant-tensor")) == []


def test_summed_loss_saved_in_a_checkpoint_is_left_to_review() -> None:
    found = rule_findings(program_units(REDTEAM / "rt39b_gr_saved_epoch_loss.py"), "graph-retention")
    assert [f.line for f in found] == [25] and not automatic_fixes(found)
    assert found[0].fix is not None and found[0].fix.needs_review


def test_dict_as_list_hoists_only_columns_whose_rows_the_loop_does_not_edit() -> None:
    edited = rule_findings(program_units(REDTEAM / "rt39p_dal_rows_edited_in_loop.py"), "dict-as-list")
    assert automatic_fixes(edited) == []
    between_calls = rule_findings(program_units(REDTEAM / "rt39b_nb_dal_rows_edited_by_loop.ipynb"), "dict-as-list")
    # still found; review since red team 45: an empty selection of an int or nested column converts to another dtype and shape (the rows are not proved non-empty)
    assert len(between_calls) == 2 and automatic_fixes(between_calls) == []


def test_host_sync_powers_and_roots_of_items_are_not_accumulated_automatically() -> None:
    found = rule_findings(program_units(REDTEAM / "rt39p_hs_power_operands.py"), "host-sync")
    assert found and automatic_fixes(found) == []


@pytest.mark.parametrize(("name", "count"), [("rt39p_ctm_window_in_loop.py", 5), ("rt39_ctm_generator_window.py", 2)])
def test_window_functions_and_generator_factories_stay_hints(name: str, count: int) -> None:
    found = rule_findings(program_units(REDTEAM / name), "cpu-then-move")
    assert len(found) == count and automatic_fixes(found) == []
