"""Red team 60 (blind, 10 programs: 7 notebooks, a project whose notebook imports `utils`, 2 scripts; notebooks
as people write them: a step hook that starts as a placeholder and is redefined before the training cell is run
again, an attack helper redefined as FGSM before the robustness cell runs again, a temperature annealed by a
redefined hook, hand-written activations reused on integer counts and bool masks, histories appended before and
after the model is parked on the host, group losses back-propagated in the next cell through a helper,
`%%time` / `!pip` / `obj?` lines) met 9 automatic rewrites on first contact, none harmful. Probes (not blind)
found D1: a model moved between the host and the device while a history is filled (list-to-tensor's
`torch.stack`, host-sync's device total) was taken for one device. Most tests pin what held.
"""

from __future__ import annotations

import pytest
from redteam_units import REDTEAM, automatic_fixes, automatic_lines, rule_findings, source_units


def _cell_line(name: str, cell: int, text: str) -> tuple[int, int]:
    units = [u for u in __import__("redteam_units").program_units(REDTEAM / name) if u.ref.cell == cell]
    return cell, next(i for i, line in enumerate(units[0].text.splitlines(), 1) if text in line)


def test_the_total_read_by_the_redefined_hook_stays_a_python_float_in_the_rerun_cell() -> None:
    name = "rt60_nb_hs_callback_redefined.ipynb"
    lines = automatic_lines(REDTEAM / name, "host-sync")
    assert _cell_line(name, 6, "running += loss.item()") not in lines  # `on_step` now reads `running`
    # where the hook was still the placeholder, and for the count no hook reads, the rewrite stays
    assert {_cell_line(name, 3, "running += loss.item()"), _cell_line(name, 6, "correct +=")} <= lines


@pytest.mark.parametrize("name", [
    "rt60_nb_ev_attack_redefined.ipynb", "rt60p_nb_ev_attack_rebound_by_assignment.ipynb",
])
def test_robustness_loops_whose_attack_helper_becomes_fgsm_are_not_wrapped(name: str) -> None:
    wrapped = automatic_lines(REDTEAM / name, "eval-without-no-grad")
    assert all(cell not in (3, 5) for cell, _ in wrapped) if "redefined" in name else \
        all(cell not in (1, 3) for cell, _ in wrapped)


def test_the_accuracy_helper_and_the_stored_logits_are_still_wrapped() -> None:
    name = "rt60_nb_ev_attack_redefined.ipynb"
    cells = {cell for cell, _ in automatic_lines(REDTEAM / name, "eval-without-no-grad")}
    assert cells == {2, 6}


@pytest.mark.parametrize("name", [
    "rt60_nb_rt_annealed_temperature.ipynb", "rt60p_nb_rt_temperature_in_config.ipynb",
])
def test_a_temperature_lowered_by_a_later_hook_is_not_hoisted(name: str) -> None:
    assert not automatic_lines(REDTEAM / name, "redundant-tensor")


def test_group_losses_back_propagated_through_a_helper_keep_their_graphs() -> None:
    name = "rt60_nb_gr_group_losses_next_cell.ipynb"
    assert not automatic_lines(REDTEAM / name, "graph-retention")
    assert not automatic_lines(REDTEAM / name, "eval-without-no-grad")


def test_hand_written_activations_reused_on_counts_are_not_fused_automatically() -> None:
    assert not automatic_lines(REDTEAM / "rt60_nb_of_helpers_on_counts.ipynb", "operator-fusion")


def test_the_eval_mode_helper_of_the_imported_module_whose_outputs_are_trained_on_is_not_wrapped() -> None:
    path = REDTEAM / "rt60_proj_nb_utils" / "utils.py"
    wrapped = {line for _, line in automatic_lines(path, "eval-without-no-grad")}
    text = path.read_text().splitlines()
    assert all("def accuracy" not in text[line - 1] for line in wrapped)
    predict = next(i for i, line in enumerate(text, 1) if "probs = F.softmax(model(x), dim=1)" in line)
    assert predict not in wrapped


@pytest.mark.parametrize("name", [
    "rt60_nb_hs_callback_redefined.ipynb", "rt60p_nb_hs_totals_started_in_setup_cell.ipynb",
])
def test_histories_and_totals_across_cells_are_not_converted(name: str) -> None:
    assert not automatic_lines(REDTEAM / name, "list-to-tensor")


def test_totals_started_as_a_tensor_or_read_by_registered_callbacks_stay_as_written() -> None:
    assert not automatic_lines(REDTEAM / "rt60p_nb_hs_totals_started_in_setup_cell.ipynb", "host-sync")


# D1 (probes): a model moved between the host and the device while its values are collected. "The same code"
# (`hist.append(loss.item())` at two places) and "outputs of one model" were taken for one device; parked on
# the host half-way, the model's losses live on two devices and `torch.stack(hist)` raises on CUDA, where
# `torch.tensor` of Python floats did not.
_PARKED = """import torch
import torch.nn as nn
import torch.nn.functional as F
device = 'cuda' if torch.cuda.is_available() else 'cpu'
X = torch.randn(64, 4)
y = X.sum(1, keepdim=True)
model = nn.Linear(4, 1)
X, y = X.to(device), y.to(device)
model = model.to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
hist = []
for epoch in range(3):
    loss = F.mse_loss(model(X), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    hist.append(loss.item())
MOVE
for epoch in range(3):
    loss = F.mse_loss(model(X), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    hist.append(loss.item())
h = torch.tensor(hist)
"""

_MOVES = {
    "model_rebound_to_host_copy": "model = model.cpu()\nX, y = X.cpu(), y.cpu()",
    "model_moved_in_place": "model.cpu()\nX, y = X.cpu(), y.cpu()",
    "model_moved_by_to_cpu": "model.to('cpu')\nX, y = X.to('cpu'), y.to('cpu')",
    "by_a_helper_that_moves_it_in_place": "def park(m, *ts):\n    m.cpu()\n    return [v.cpu() for v in ts]\n"
                                          "X, y = park(model, X, y)",
}


@pytest.mark.parametrize("move", _MOVES.values(), ids=_MOVES.keys())
def test_a_history_filled_before_and_after_the_model_is_parked_is_not_stacked(move: str) -> None:
    found = rule_findings(source_units(_PARKED.replace("MOVE", move)), "list-to-tensor")
    assert found and not automatic_fixes(found)


_STAYING = {
    "nothing_moved": "pass",
    "a_dtype_conversion_of_the_data": "X, y = X.to(torch.float32), y.to(torch.float32)",
    "a_host_copy_that_rebinds_nothing": "snapshot = X.cpu()",
    "a_helper_that_copies_without_moving": "def show(*ts):\n    return [v.cpu() for v in ts]\nshown = show(X, y)",
}


@pytest.mark.parametrize("move", _STAYING.values(), ids=_STAYING.keys())
def test_a_history_of_one_model_that_stays_put_is_still_stacked(move: str) -> None:
    found = rule_findings(source_units(_PARKED.replace("MOVE", move)), "list-to-tensor")
    assert len(automatic_fixes(found)) == 1


_IN_LOOP = """import torch
import torch.nn as nn
import torch.nn.functional as F
device = 'cuda' if torch.cuda.is_available() else 'cpu'
X = torch.randn(64, 4)
y = X.sum(1, keepdim=True)
model = nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
hist = []
total = 0.0
for epoch in range(6):
    for i in range(0, 64, 16):
        xb, yb = X[i:i + 16], y[i:i + 16]
        BODY
        loss = F.mse_loss(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    hist.append(loss.item())
h = torch.tensor(hist)
print(total)
"""

_LOOP_MOVES = {
    "model_swung_between_devices": "where = device if epoch % 2 == 0 else 'cpu'\n        model.to(where)\n"
                                   "        xb, yb = xb.to(where), yb.to(where)",
    "warm_up_on_the_host": "if epoch == 2:\n            model.to(device)\n        xb, yb = xb.to(device), yb.to(device)",
}


@pytest.mark.parametrize("body", _LOOP_MOVES.values(), ids=_LOOP_MOVES.keys())
def test_a_model_moved_inside_the_loop_keeps_history_and_total_as_written(body: str) -> None:
    units = source_units(_IN_LOOP.replace("BODY", body))
    assert not automatic_fixes(rule_findings(units, "list-to-tensor"))
    assert not automatic_fixes(rule_findings(units, "host-sync"))


_LOOP_STAYS = {
    "batches_moved_every_step": "xb, yb = xb.to(device), yb.to(device)",
    "batches_moved_by_cuda_style_to": "xb = xb.to(device, non_blocking=True)\n        yb = yb.to(device)",
    "a_host_copy_for_logging": "xb, yb = xb.to(device), yb.to(device)\n        shown = xb.cpu()",
}


@pytest.mark.parametrize("body", _LOOP_STAYS.values(), ids=_LOOP_STAYS.keys())
def test_batches_moved_to_the_one_device_every_step_leave_both_rewrites(body: str) -> None:
    units = source_units(_IN_LOOP.replace("BODY", body))
    assert len(automatic_fixes(rule_findings(units, "list-to-tensor"))) == 1
    assert len(automatic_fixes(rule_findings(units, "host-sync"))) == 1


def test_the_parked_history_probe_keeps_only_the_steady_history_rewrite() -> None:
    name = "rt60p_nb_lt_parked_in_one_cell.ipynb"
    assert automatic_lines(REDTEAM / name, "list-to-tensor") == {_cell_line(name, 2, "steady.append(loss2.item())")}


def test_the_warm_up_probe_keeps_only_the_steady_total_rewrite() -> None:
    path = REDTEAM / "rt60p_hs_warmup_on_host.py"
    text = path.read_text().splitlines()
    assert automatic_lines(path, "host-sync") == {
        (None, next(i for i, line in enumerate(text, 1) if "steady_total += loss.item()" in line))}
