"""Red team 58 (blind, 10 programs: 3 projects, 2 notebooks, several models in one loop: a DDPG actor whose
gradient flows through a critic frozen in eval mode, mutual distillation through an eval-mode partner, a MoCo
queue / pointer / seen-mask rebuilt per epoch and written by a helper, a bagged ensemble with 0-d snapshots,
a GAN whose pooled fakes keep their graphs for a generator step every K, progressive unfreezing under an
eval-mode backbone, BYOL with an in-place EMA, double DQN with one eval-mode forward whose half is trained,
an EMA copy promoted to training in a later cell, an extractor unfrozen in a later cell) met 3 automatic
rewrites on first contact, none harmful (host-sync twice, ping-pong once). 8 probes (not blind) met 5 more,
none harmful; most tests pin what held where the programs aimed. A hand-shaped case after the probes found D1
(below): `torch.stack` of values from two models that may sit on two devices (list-to-tensor, ping-pong).
"""

from __future__ import annotations

import pytest
from redteam_units import REDTEAM, automatic_fixes, automatic_lines, fixed_program, rule_findings, source_units


def _line(path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


# Every eval-mode forward of these programs is back-propagated (through a frozen critic, into a trained
# partner, into the trained half of a shared pass, by a later cell, by an attack helper of another module):
# eval-without-no-grad rewrites none of them.
@pytest.mark.parametrize("name", [
    "rt58_ev_ddpg_frozen_critic.py", "rt58_ev_mutual_distill.py", "rt58_proj_dqn_target/agent.py",
    "rt58_proj_kd_unfreeze/main.py", "rt58_nb_ema_promote.ipynb", "rt58_nb_unfreeze_heads.ipynb",
    "rt58p_ev_generator_partner.py", "rt58p_proj_attack_eval/main.py", "rt58p_nb_teacher_grads_read.ipynb",
    "rt58_proj_byol_ema/main.py",
])
def test_eval_mode_forwards_that_feed_a_backward_are_not_wrapped(name: str) -> None:
    assert not automatic_lines(REDTEAM / name, "eval-without-no-grad")


# Tensors rebuilt per epoch / step and then written in place (by a helper, a Parameter made from them, a
# buffer or attribute that keeps them, `out=`, `_foreach_mul_`, a dict literal, an unpacked row, `.grad`).
@pytest.mark.parametrize("name", ["rt58_rt_moco_queue_reset.py", "rt58p_rt_fresh_state_routes.py"])
def test_tensors_written_after_being_built_are_not_hoisted(name: str) -> None:
    assert not automatic_lines(REDTEAM / name, "redundant-tensor")


def test_member_init_tensors_owned_by_the_member_stay_and_the_read_only_identity_is_hoisted() -> None:
    path = REDTEAM / "rt58p_rt_member_init_storage.py"
    assert automatic_lines(path, "redundant-tensor") == {(None, _line(path, "eye = torch.eye(D, device=device)"))}


def test_pooled_fakes_and_window_sums_keep_their_graphs() -> None:
    assert not automatic_lines(REDTEAM / "rt58_gr_gan_pool_every_k.py", "graph-retention")


def test_histories_of_a_parameter_and_a_buffer_updated_in_place_are_not_converted() -> None:
    path = REDTEAM / "rt58p_lt_param_buffer_history.py"
    assert automatic_lines(path, "list-to-tensor") == {(None, _line(path, "losses.append(loss.item())"))}
    after = fixed_program("rt58p_lt_param_buffer_history.py", "list-to-tensor")
    assert "losses.append(loss.detach().clone())" in after and "temps.append(d.log_t.item())" in after


def test_a_one_element_critic_value_snapshot_keeps_its_0d_shape() -> None:
    after = fixed_program("rt58p_pp_critic_value_shape.py", "ping-pong")
    assert "base = v.detach().reshape(()).clone().float().cpu()" in after


def test_host_and_device_rewards_in_one_accumulator_are_not_rewritten() -> None:
    assert not automatic_lines(REDTEAM / "rt58p_hs_host_and_device_rewards.py", "host-sync")


_KD = """import torch
import torch.nn as nn
import torch.nn.functional as F
device = 'cuda' if torch.cuda.is_available() else 'cpu'
teacher = nn.Linear(4, 3).to(device)
student = nn.Linear(4, 3).to(device)
opt = torch.optim.SGD(student.parameters(), lr=0.1)
x = torch.randn(64, 4, device=device)
shown = []


def progress(starts):
    for k, i in enumerate(starts):
        READ
        yield i


for epoch in range(3):
    kd_total = 0.0
    for i in progress(range(0, 64, 16)):
        with torch.no_grad():
            t = teacher(x[i:i + 16])
        loss = F.mse_loss(student(x[i:i + 16]), t)
        opt.zero_grad()
        loss.backward()
        opt.step()
        kd_total += loss.item()
    shown.append(kd_total)
"""


def test_a_running_total_read_by_the_loops_own_generator_stays_a_python_float() -> None:
    found = rule_findings(source_units(_KD.replace("READ", "shown.append(round(kd_total, 4))")), "host-sync")
    assert not automatic_fixes(found)


def test_a_generator_that_does_not_read_the_total_leaves_the_rewrite() -> None:
    found = rule_findings(source_units(_KD.replace("READ", "shown.append(k)")), "host-sync")
    assert len(automatic_fixes(found)) == 1


_RELABEL = """import torch
import torch.nn as nn
import torch.nn.functional as F
device = 'cuda' if torch.cuda.is_available() else 'cpu'
data = {"x": [0.5, -1.0, 2.0, 0.1, -0.3, 1.2, 0.7, -2.0], "y": [0, 1, 0, 1, 1, 0, 1, 0]}
teacher = nn.Linear(1, 2).to(device)
student = nn.Linear(1, 2).to(device)
opt = torch.optim.SGD(student.parameters(), lr=0.1)


def relabel(d, net):
    with torch.no_grad():
        pred = net(torch.tensor(d["x"], device=device)[:, None]).argmax(1).tolist()
    for k in range(0, len(pred), 3):
        d["y"][k] = pred[k]


for epoch in range(4):
    for s in range(0, 8, 4):
        xb = torch.tensor(data["x"][s:s + 4])
        yb = torch.tensor(data["y"][s:s + 4])
        loss = F.cross_entropy(student(xb[:, None].to(device)), yb.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
    RELABEL
"""


def test_a_column_a_teachers_helper_relabels_between_epochs_is_not_converted() -> None:
    found = automatic_fixes(rule_findings(source_units(_RELABEL.replace("RELABEL", "relabel(data, teacher)")),
                                          "dict-as-list"))
    assert [f.line for f in found] == [20]  # `x` only: `y` is written by the teacher's relabelling


def test_without_the_relabelling_both_columns_are_converted() -> None:
    found = automatic_fixes(rule_findings(source_units(_RELABEL.replace("RELABEL", "pass")), "dict-as-list"))
    assert sorted(f.line for f in found) == [20, 21]


# D1 (found by a hand-shaped case after the probes): a list filled with the losses of two models, one kept on
# the host and one moved to the device. Neither value is proved on the host, so the old check ("the list mixes
# host tensors with device ones") passed, and the rewrite `torch.stack(hist)` raises on CUDA (two devices);
# `torch.tensor(hist)` of Python floats did not.
_TWO_MODELS = """import torch
import torch.nn as nn
import torch.nn.functional as F
device = 'cuda' if torch.cuda.is_available() else 'cpu'
teacher = nn.Linear(4, 3)
student = nn.Linear(4, 3).to(device)
opt_t = torch.optim.SGD(teacher.parameters(), lr=0.1)
opt_s = torch.optim.SGD(student.parameters(), lr=0.1)
x = torch.randn(64, 4)
y = torch.randint(0, 3, (64,))
hist = []
for step in range(6):
    xb, yb = x[step * 8:(step + 1) * 8], y[step * 8:(step + 1) * 8]
    t_logits = teacher(xb)
    t_loss = F.cross_entropy(t_logits, yb)
    opt_t.zero_grad()
    t_loss.backward()
    opt_t.step()
    s_loss = F.mse_loss(student(xb.to(device)), t_logits.detach().to(device))
    opt_s.zero_grad()
    s_loss.backward()
    opt_s.step()
APPENDS
h = torch.tensor(hist)
"""

_SEVERAL = {
    "teacher_and_student_losses": "    hist.append(t_loss.item())\n    hist.append(s_loss.item())\n",
    "cast_and_item": "    hist.append(float(t_loss))\n    hist.append(s_loss.item())\n",
    "one_under_an_if": "    hist.append(s_loss.item())\n    if step % 2:\n        hist.append(t_loss.item())\n",
}


@pytest.mark.parametrize("appends", _SEVERAL.values(), ids=_SEVERAL.keys())
def test_a_list_of_values_from_two_models_is_not_stacked(appends: str) -> None:
    found = rule_findings(source_units(_TWO_MODELS.replace("APPENDS", appends)), "list-to-tensor")
    assert found and not automatic_fixes(found)


_ONE_SOURCE = {
    "one_append": "    hist.append(s_loss.item())\n",
    "the_same_tensor_twice": "    hist.append(s_loss.item())\n    s_loss = s_loss * 2\n    hist.append(s_loss.item())\n",
    "two_host_tensors": "    xs = x[step]\n    hist.append(xs.sum().item())\n    hist.append(xs.mean().item())\n",
}


@pytest.mark.parametrize("appends", _ONE_SOURCE.values(), ids=_ONE_SOURCE.keys())
def test_values_of_one_tensor_or_of_host_tensors_are_still_stacked(appends: str) -> None:
    found = rule_findings(source_units(_TWO_MODELS.replace("APPENDS", appends)), "list-to-tensor")
    assert len(automatic_fixes(found)) == 1


def test_without_any_device_two_sources_are_still_stacked() -> None:
    text = _TWO_MODELS.replace("device = 'cuda' if torch.cuda.is_available() else 'cpu'\n", "") \
        .replace(".to(device)", "").replace("APPENDS", _SEVERAL["teacher_and_student_losses"])
    assert len(automatic_fixes(rule_findings(source_units(text), "list-to-tensor"))) == 1


def test_outputs_of_one_model_are_still_stacked() -> None:
    appends = "    hist.append(student(xb.to(device)).sum().item())\n    hist.append(student(x[:2].to(device)).mean().item())\n"
    found = rule_findings(source_units(_TWO_MODELS.replace("APPENDS", appends)), "list-to-tensor")
    assert len(automatic_fixes(found)) == 1


# The same category in ping-pong: `torch.tensor([a.item(), b.item()])` -> `torch.stack([a.detach(), b.detach()])`.
_PAIRS = {
    "teacher_and_student": ("    pair = torch.tensor([t_loss.item(), s_loss.item()])\n", 0),
    "cast_beside_item": ("    pair = torch.tensor([t_loss.detach().item(), s_loss.item()])\n", 0),
    "one_model_twice": ("    pair = torch.tensor([student(xb.to(device)).sum().item(), "
                        "student(x[:2].to(device)).mean().item()])\n", 1),
    "one_tensor_twice": ("    pair = torch.tensor([s_loss.item(), s_loss.item()])\n", 1),
}


@pytest.mark.parametrize("line,automatic", _PAIRS.values(), ids=_PAIRS.keys())
def test_a_literal_of_scalars_from_two_models_is_not_stacked(line: str, automatic: int) -> None:
    found = rule_findings(source_units(_TWO_MODELS.replace("APPENDS", line)), "ping-pong")
    assert found and len(automatic_fixes(found)) == automatic
