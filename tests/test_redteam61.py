"""Red team 61 (blind, 11 programs: 3 projects, 2 notebooks; fine-tuning, freezing and partial training: a body
sliced from a pretrained net kept in eval mode yet fine-tuned through layer-wise parameter groups, magnitude
pruning with regrowth written through views of fresh masks, hand-written fake quantisation with a straight-through
estimator and hand-written activations, linear probing on half-precision cached features normalised in place,
host-side observers and LSQ step sizes, ULMFiT-style gradual unfreezing, LoRA merged for evaluation, a frozen stem
with a trained top read through a forward hook, a teacher released mid-training, QAT calibration across cells, a
Fisher-score loop that looks like evaluation) met 10 automatic rewrites on first contact, none harmful.

Probes found D1 (review-only, `--unsafe` harmful): the frozen-teacher proof (`_frozen_forward`) read
`requires_grad` switches in the loop's unit only, and the optimizer the loop steps from its constructor only. A
teacher whose own class (another module, an earlier cell) releases its head, and whose head joins the stepped
optimizer through `add_param_group`, was offered a `no_grad` wrap whose message said no optimizer updates it.
"""

from __future__ import annotations

import json

import pytest
from redteam_units import REDTEAM, automatic_lines, fixed_program, rule_findings, source_units

from paef_jupyter.api import analyze_path
from paef_jupyter.model import CellRef, SourceUnit

EV = "eval-without-no-grad"


def _line(path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def _lines(units: list[SourceUnit]) -> set[tuple[int | None, int]]:
    return {(f.ref.cell, f.line) for f in rule_findings(units, EV)}


# --- what held on first contact ------------------------------------------------------------------------------

@pytest.mark.parametrize("name", [
    "rt61_ev_bn_frozen_slice.py", "rt61_hs_gradual_unfreeze.py", "rt61_nb_fisher_unfreeze.ipynb",
    "rt61_proj_partial_finetune/phases.py", "rt61_proj_kd_teacher_head/main.py", "rt61_nb_qat_calibration.ipynb",
])
def test_training_forwards_in_eval_mode_are_not_wrapped_automatically(name: str) -> None:
    path = REDTEAM / name
    found = automatic_lines(path, EV)
    if name == "rt61_ev_bn_frozen_slice.py":  # only `validate()`'s loop: its outputs end in `.item()`
        assert found == {(None, _line(path, "for i in range(0, xv.shape[0], 50):"))}
    else:
        assert not found


@pytest.mark.parametrize("name", ["rt61_rt_prune_regrow_masks.py", "rt61p_rt_mask_view_writes.py"])
def test_masks_written_through_views_are_not_hoisted(name: str) -> None:
    path = REDTEAM / name
    found = automatic_lines(path, "redundant-tensor")
    assert all("torch.ones" not in path.read_text().splitlines()[line - 1] for _, line in found)


def test_host_drawn_initialisers_are_not_built_on_the_device() -> None:
    path = REDTEAM / "rt61p_cf_lora_reinit_draws.py"
    assert automatic_lines(path, "cpu-then-move") in (set(), {(None, _line(path, "B = nn.Parameter(torch.zeros"))})
    after = fixed_program("rt61p_cf_lora_reinit_draws.py", "cpu-then-move")
    assert "init_a(R, D).to(device)" in after and "torch.empty(R, D), a=math.sqrt(5)).to(device)" in after


def test_observer_scales_computed_on_the_host_stay_there() -> None:
    assert not automatic_lines(REDTEAM / "rt61_pp_observer_scales.py", "ping-pong")


def test_fake_quant_relus_and_softmaxes_are_left_to_review() -> None:
    assert not automatic_lines(REDTEAM / "rt61_of_fake_quant_ste.py", "operator-fusion")
    assert not automatic_lines(REDTEAM / "rt61_proj_kd_teacher_head/losses.py", "operator-fusion")


# --- D1: a teacher released by its own class, or given to the stepped optimizer later -------------------------

_TEACHER = '''import torch
import torch.nn as nn
import torch.nn.functional as F
{head}
device = 'cuda' if torch.cuda.is_available() else 'cpu'
x_all = torch.randn(200, 8).to(device)
y_all = torch.randint(0, 3, (200,)).to(device)
batches = [(x_all[i:i + 50], y_all[i:i + 50]) for i in range(0, 200, 50)]
teacher = {build}.to(device)
teacher.eval()
student = nn.Linear(8, 3).to(device)
opt = torch.optim.SGD(student.parameters(), lr=0.1)
for epoch in range(3):
{switch}
    for xb, yb in batches:
        t_logits = teacher(xb)
        loss = F.kl_div(F.log_softmax(student(xb), -1), F.softmax(t_logits, -1), reduction='batchmean')
        loss = loss + F.cross_entropy(t_logits, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
'''
_NET = '''class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(8, 8)
        self.fc = nn.Linear(8, 3)

    def forward(self, x):
        return self.fc(torch.relu(self.body(x)))
'''
_RELEASE = '''
    def release_head(self):
        for p in self.fc.parameters():
            p.requires_grad = True
'''


def _teacher_line(text: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if "t_logits = teacher(xb)" in line)


@pytest.mark.parametrize("switch", [
    "    if epoch == 1:\n        opt.add_param_group({'params': teacher.fc.parameters(), 'lr': 0.01})",
    "    if epoch == 1:\n        head_params = list(teacher.fc.parameters())\n        opt.add_param_group({'params': head_params})",
    "    if epoch == 1:\n        opt.param_groups.append({'params': list(teacher.fc.parameters()), 'lr': 0.01})",
    "    if epoch == 1:\n        opt.param_groups[0]['params'] += list(teacher.fc.parameters())",
])
def test_a_teacher_given_to_the_stepped_optimizer_later_is_not_wrapped(switch: str) -> None:
    text = _TEACHER.format(head=_NET, build="Net()", switch=switch)
    assert (None, _teacher_line(text)) not in _lines(source_units(text))


@pytest.mark.parametrize("switch", [
    "    for g in opt.param_groups:\n        g['lr'] *= 0.5",
    "    if epoch == 1:\n        opt.param_groups[0]['lr'] = 0.01",
])
def test_learning_rate_changes_leave_the_teacher_wrap_for_review(switch: str) -> None:
    text = _TEACHER.format(head=_NET, build="Net()", switch=switch)
    found = [f for f in rule_findings(source_units(text), EV) if f.line == _teacher_line(text)]
    assert found and not found[0].fixable  # review, as before


def _project(tmp_path, release: bool, call: bool):
    (tmp_path / "models.py").write_text("import torch\nimport torch.nn as nn\n\n\n" + _NET + (_RELEASE if release else ""))
    switch = "    if epoch == 1:\n        teacher.release_head()" if call else "    pass"
    text = _TEACHER.format(head="from models import Net", build="Net()", switch=switch)
    main = tmp_path / "main.py"
    main.write_text(text)
    return str(main), _teacher_line(text)


def test_a_teacher_whose_class_in_another_module_releases_its_head_is_not_wrapped(tmp_path) -> None:
    main, line = _project(tmp_path, release=True, call=True)
    assert line not in {f.line for f in analyze_path(main, rules=[EV]).findings}


def test_a_teacher_whose_class_switches_nothing_is_still_offered_for_review(tmp_path) -> None:
    main, line = _project(tmp_path, release=False, call=False)
    assert line in {f.line for f in analyze_path(main, rules=[EV]).findings}


def test_the_probe_project_teacher_is_not_wrapped() -> None:
    path = REDTEAM / "rt61p_proj_teacher_released/main.py"
    assert _line(path, "t_logits = teacher(xb)") not in {f.line for f in analyze_path(str(path), rules=[EV]).findings}


def _notebook(release: bool) -> list[SourceUnit]:
    text = _TEACHER.format(head="", build="Net()", switch="    if epoch == 1:\n        teacher.release_head()"
                           if release else "    pass")
    first = "import torch\nimport torch.nn as nn\n\n\n" + _NET + (_RELEASE if release else "")
    return [SourceUnit(CellRef("nb.ipynb", 0), first), SourceUnit(CellRef("nb.ipynb", 1), text)]


def test_a_teacher_whose_class_in_an_earlier_cell_releases_its_head_is_not_wrapped() -> None:
    units = _notebook(release=True)
    assert (1, _teacher_line(units[1].text)) not in _lines(units)


def test_a_teacher_whose_class_in_an_earlier_cell_switches_nothing_is_still_offered() -> None:
    units = _notebook(release=False)
    assert (1, _teacher_line(units[1].text)) in _lines(units)


def test_first_contact_programs_exist_and_are_marked_runnable() -> None:
    names = sorted(p.name for p in REDTEAM.iterdir() if p.name.startswith("rt61_"))
    assert len(names) == 11
    for name in names:
        path = REDTEAM / name
        text = (path / "main.py").read_text() if path.is_dir() else path.read_text()
        if path.suffix == ".ipynb":
            text = "".join(json.loads(text)["cells"][0]["source"])
        assert "# corpus: runnable" in text
