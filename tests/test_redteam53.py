"""Red team 53 (blind, 11 programs: 3 projects, 2 notebooks) on tensors that are the thing optimised or
simulated, not a model's weights: PGD / FGSM inputs, a PINN's input derivatives, MALA / HMC samplers,
particles and a cellular automaton, k-means / EM, a GP hyperparameter fit, style transfer and deep dream,
CEM planning, GAN inversion. First contact met 8 automatic rewrites, none harmful; 8 probes written after
it (not blind) met 6, none harmful. No rule was changed: these tests pin what held (and the near misses
that must stay automatic), so that a later widening that breaks it fails here.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from redteam_units import REDTEAM, automatic_lines, fixed_program, path_units, program_units, rule_findings, source_units


def _found(path: Path, rule: str) -> set[tuple[int | None, int]]:
    return {(f.ref.cell, f.line) for f in rule_findings(path_units(path), rule)}


# --- blind programs ------------------------------------------------------------------------------


def test_pgd_training_total_is_rewritten_but_not_the_attack_or_the_robust_evaluation() -> None:
    path = REDTEAM / "rt53_hs_pgd_adv_training.py"
    assert automatic_lines(path, "host-sync") == {(None, 60)}
    # the robust pass differentiates w.r.t. the input inside an eval-mode loop
    assert not automatic_lines(path, "eval-without-no-grad")


def test_pinn_test_residual_in_eval_mode_is_not_wrapped() -> None:
    path = REDTEAM / "rt53_ev_pinn_residual.py"
    assert not automatic_lines(path, "eval-without-no-grad")
    assert not automatic_lines(path, "host-sync")


def test_sampler_noise_drawn_on_the_cpu_generator_is_never_moved_automatically() -> None:
    path = REDTEAM / "rt53_ct_langevin_sampler.py"
    assert {line for _, line in _found(path, "cpu-then-move")} >= {37, 43, 64}
    assert not automatic_lines(path, "cpu-then-move")
    assert not automatic_lines(path, "list-to-tensor")


def test_a_constant_written_in_place_after_its_build_is_not_hoisted_but_read_only_ones_are() -> None:
    path = REDTEAM / "rt53_rt_particles_automaton.py"
    assert (None, 24) in _found(path, "redundant-tensor")
    assert automatic_lines(path, "redundant-tensor") == {(None, 47), (None, 48)}
    after = fixed_program(path.name, "redundant-tensor")
    assert "    gravity = torch.tensor([0.0, -9.81], device=device)\n    gravity[0] += " in after


def test_kmeans_em_lists_and_dicts_are_left_alone() -> None:
    path = REDTEAM / "rt53_da_kmeans_em.py"
    for rule in ("list-to-tensor", "dict-as-list", "redundant-tensor", "ping-pong"):
        assert not automatic_lines(path, rule), rule


def test_gp_snapshot_of_a_float64_parameter_keeps_float32() -> None:
    path = REDTEAM / "rt53_pp_gp_hyperfit.py"
    assert automatic_lines(path, "ping-pong") == {(None, 54)}
    after = fixed_program(path.name, "ping-pong")
    assert "log_ls.detach().reshape(()).clone().float().cpu()" in after  # torch.tensor(float) is float32
    assert ".clone().cpu()" not in after
    assert not automatic_lines(path, "host-sync")


@pytest.mark.parametrize("module", ["rt53_proj_style_transfer/features.py", "rt53_proj_style_transfer/dream.py",
                                    "rt53_proj_style_transfer/main.py", "rt53_proj_cem_planner/model.py",
                                    "rt53_proj_cem_planner/planner.py", "rt53_proj_cem_planner/main.py",
                                    "rt53_proj_gan_inversion/nets.py", "rt53_proj_gan_inversion/invert.py",
                                    "rt53_proj_gan_inversion/main.py"])
def test_project_modules_optimising_inputs_get_no_automatic_rewrite(module: str) -> None:
    path = REDTEAM / module
    for rule in ("eval-without-no-grad", "graph-retention", "redundant-tensor", "host-sync", "cpu-then-move"):
        assert not automatic_lines(path, rule), rule


def test_fgsm_notebook_wraps_only_the_snapshot_loop_not_the_attack_sweep() -> None:
    path = REDTEAM / "rt53_nb_fgsm_robustness.ipynb"
    assert automatic_lines(path, "eval-without-no-grad") == {(3, 12)}
    assert automatic_lines(path, "host-sync") == {(3, 13)}


def test_hmc_notebook_gets_no_automatic_rewrite() -> None:
    path = REDTEAM / "rt53_nb_hmc_sampler.ipynb"
    for rule in ("host-sync", "list-to-tensor", "ping-pong", "redundant-tensor", "graph-retention",
                 "eval-without-no-grad"):
        assert not automatic_lines(path, rule), rule


# --- probes ----------------------------------------------------------------------------------------


def test_constructors_given_state_after_their_build_are_not_hoisted() -> None:
    path = REDTEAM / "rt53p_rt_perturbation_hoist.py"
    assert not automatic_lines(path, "redundant-tensor")
    # near misses that must stay automatic: plain forward loops with no backward
    assert automatic_lines(path, "eval-without-no-grad") == {(None, 38), (None, 43)}


@pytest.mark.parametrize("name", ["rt53p_ev_hidden_input_grad.py", "rt53p_ev_hooked_activations.py"])
def test_eval_loops_needing_the_graph_out_of_sight_are_not_wrapped(name: str) -> None:
    assert not automatic_lines(REDTEAM / name, "eval-without-no-grad")


def test_hooked_activations_give_the_hook_as_review_reason() -> None:
    found = rule_findings(program_units(REDTEAM / "rt53p_ev_hooked_activations.py"), "eval-without-no-grad")
    assert found and all(not f.fixable and "register_forward_hook" in f.fix.review for f in found)


@pytest.mark.parametrize("name", ["rt53p_hs_totals_read_by_callbacks.py", "rt53p_hs_total_on_failure.py"])
def test_totals_read_by_callbacks_or_after_an_exception_are_not_rewritten(name: str) -> None:
    assert not automatic_lines(REDTEAM / name, "host-sync")


EXCEPTION_TOTAL = '''import torch
device = 'cuda' if torch.cuda.is_available() else 'cpu'
W = torch.randn(4, 1, device=device, requires_grad=True)
opt = torch.optim.SGD([W], lr=0.1)
X = torch.randn(64, 4, device=device)
Y = torch.randn(64, 1, device=device)


def fit(steps):
    total = 0.0
    try:
        for step in range(steps):
            loss = ((X[step * 8:(step + 1) * 8] @ W - Y[step * 8:(step + 1) * 8]) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
            torch.linalg.cholesky(torch.eye(2, device=device) * (4 - step))
    except RuntimeError:
        return total
    return total


print(round(fit(8), 4))
'''


def test_a_float32_total_left_by_a_cholesky_failure_is_for_review_with_that_reason() -> None:
    found = rule_findings(source_units(EXCEPTION_TOTAL), "host-sync")
    assert [f.line for f in found] == [17]
    assert not found[0].fixable and "exception leaving the loop" in found[0].fix.review
    # near miss: without the try, the same total is rewritten
    plain = EXCEPTION_TOTAL.replace("    try:\n", "    if True:\n").replace(
        "    except RuntimeError:\n        return total\n", "")
    assert [f.line for f in rule_findings(source_units(plain), "host-sync") if f.fixable] == [17]


def test_rollout_costs_kept_with_their_graph_are_not_touched() -> None:
    path = REDTEAM / "rt53p_gr_differentiable_rollout.py"
    assert not _found(path, "graph-retention")
    assert automatic_lines(path, "redundant-tensor") == {(None, 73)}


def test_lists_of_item_reads_keep_their_dtypes() -> None:
    path = REDTEAM / "rt53p_nb_helpers_in_place.ipynb"
    assert automatic_lines(path, "list-to-tensor") == {(2, 16), (2, 17), (2, 18)}
    assert not automatic_lines(path, "redundant-tensor")
    assert not automatic_lines(path, "eval-without-no-grad")
