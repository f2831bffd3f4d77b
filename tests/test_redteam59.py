"""Red team 59 (blind, 10 programs: 3 projects, 2 notebooks, aimed at code the analysis sees only in part:
module and tensor hooks, LBFGS closures, custom autograd Functions, activation checkpointing, gradient
accumulation through dicts of callables and functools.partial, AMP on the CPU, vmap ensembles over stacked
parameters) met 5 automatic rewrites on first contact (1 evaluation wrap, 4 hoisted constants), none harmful;
8 probes (not blind) met 3 more, none harmful. No defect was found, so nothing here fails on the start commit:
these tests pin what held where the programs aimed (the refusals) beside the near misses that must keep firing.
"""

from __future__ import annotations

from functools import lru_cache

import pytest
from paef_jupyter.api import analyze_units
from redteam_units import REDTEAM, automatic_fixes, path_units, source_units


@lru_cache(maxsize=None)
def _findings(name: str) -> tuple:
    """Every rule's findings on one red-team program (or a project's module), computed once."""
    path = REDTEAM / name
    return tuple(analyze_units(path_units(path)).findings)


def _automatic(name: str, rule: str) -> list:
    return automatic_fixes([f for f in _findings(name) if f.rule == rule])


def _lines(name: str, rule: str) -> set[int]:
    return {f.line for f in _automatic(name, rule)}


# --- blind programs: the places they aimed at get no automatic rewrite ------------------------------------

@pytest.mark.parametrize("name, rule", [
    # a per-step stats tensor that tensor hooks (reading the global) add into: hoisting it would accumulate
    ("rt59_hs_grad_hooks_clip.py", "redundant-tensor"),
    # the norm list a tensor hook fills with .item() and the loop averages as Python floats
    ("rt59_hs_grad_hooks_clip.py", "list-to-tensor"),
    ("rt59_hs_grad_hooks_clip.py", "host-sync"),
    # a fresh keep-mask a forward hook zeroes in place and a pre-hook reads
    ("rt59_rt_forward_hook_masks.py", "redundant-tensor"),
    ("rt59_rt_forward_hook_masks.py", "dict-as-list"),
    # a window loss back-propagated by a partial looked up in a dict of callables
    ("rt59_gr_accum_checkpoint.py", "graph-retention"),
    # hand-written layer norm / GELU under bf16 autocast: review only (the fused ops round and cast differently)
    ("rt59_of_autocast_bf16.py", "operator-fusion"),
    # a phase loop in eval mode whose "adapt" step back-propagates; map over a partial-bound step
    ("rt59_proj_step_registry/main.py", "eval-without-no-grad"),
    # the probe grid a helper turns into a leaf and back-propagates into
    ("rt59_proj_vmap_ensemble/main.py", "redundant-tensor"),
    ("rt59_nb_amp_accum_replay.ipynb", "record-buffer"),
    ("rt59_nb_amp_accum_replay.ipynb", "list-to-tensor"),
    ("rt59_nb_hooks_scorers.ipynb", "eval-without-no-grad"),
    ("rt59_nb_hooks_scorers.ipynb", "dict-as-list"),
    ("rt59_nb_hooks_scorers.ipynb", "list-to-tensor"),
])
def test_blind_program_refuses_where_it_aimed(name: str, rule: str) -> None:
    assert not _automatic(name, rule)


def test_lbfgs_calibration_wraps_only_the_reliability_loop() -> None:
    """The fold loop (LBFGS closures, `torch.autograd.grad` on the temperature) is not wrapped; the
    reliability loop after it (a forward read back with .tolist()) is, safely."""
    name = "rt59_ev_lbfgs_calibration.py"
    text = (REDTEAM / name).read_text().splitlines()
    assert _lines(name, "eval-without-no-grad") == {text.index("for i in range(0, 200, 40):") + 1}


def test_dann_hoists_the_constant_domain_labels_but_not_the_stats_a_function_writes() -> None:
    """`torch.zeros(BS)` / `torch.ones(BS)` inside `torch.cat` are hoisted; the per-step `stats` the
    gradient-reversal Function's backward adds into, and `lam`, are not."""
    found = _automatic("rt59_proj_custom_fn_dann/main.py", "redundant-tensor")
    assert found
    text = (REDTEAM / "rt59_proj_custom_fn_dann/main.py").read_text().splitlines()
    assert all("torch.cat([torch.zeros(" in text[f.line - 1] for f in found)


# --- probes -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name, rule", [
    ("rt59p_ev_step_handed_out.py", "eval-without-no-grad"),
    ("rt59p_ev_hidden_grad_needs.py", "eval-without-no-grad"),
    ("rt59p_rt_state_in_autograd.py", "redundant-tensor"),
    ("rt59p_gr_total_backpropagated_elsewhere.py", "graph-retention"),
    ("rt59p_da_hook_grows_columns.py", "dict-as-list"),
])
def test_probe_refuses(name: str, rule: str) -> None:
    assert not _automatic(name, rule)


def test_leaf_gate_and_hooked_perturbation_are_not_hoisted_but_the_constant_target_is_found() -> None:
    name = "rt59p_rt_leaf_grad_state.py"
    found = [f for f in _findings(name) if f.rule == "redundant-tensor"]
    text = (REDTEAM / name).read_text().splitlines()
    assert [text[f.line - 1].strip() for f in found] == ["target = torch.full((32,), 0.5, device=device)"]
    assert _lines(name, "eval-without-no-grad")  # near miss: the plain measuring loop is wrapped


def test_only_the_list_no_hook_reads_becomes_a_tensor() -> None:
    """`loss_hist` is read by a forward pre-hook, a tensor hook and a backward hook as Python floats:
    kept; `grad_hist` (read by nothing else) is rewritten."""
    name = "rt59p_lt_list_read_by_hooks.py"
    text = (REDTEAM / name).read_text().splitlines()
    assert [text[f.line - 1].strip().split(".")[0] for f in _automatic(name, "list-to-tensor")] == ["grad_hist"]


def test_notebook_eval_cell_is_wrapped_and_hook_state_is_not_hoisted() -> None:
    name = "rt59p_nb_hook_state_cells.ipynb"
    assert not _automatic(name, "redundant-tensor")
    assert not _automatic(name, "list-to-tensor")
    assert [f.ref.cell for f in _automatic(name, "eval-without-no-grad")] == [3]


# --- shapes tried by hand after the probes (held on the start commit) ---------------------------------------

_GEN = """import torch
import torch.nn as nn
import torch.nn.functional as F

X = torch.randn(64, 6)
teacher = nn.Linear(6, 3)
student = nn.Linear(6, 3)
opt = torch.optim.SGD(student.parameters(), lr=0.1)


def pseudo_labels(model, data, bs):
    model.eval()
    for i in range(0, len(data), bs):
        logits = model(data[i:i + bs])
        yield logits.argmax(1)


for k, labels in enumerate(pseudo_labels(teacher, X, 32)):
    loss = F.cross_entropy(student(X[k * 32:(k + 1) * 32]), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
"""


def test_generator_evaluation_loop_is_not_wrapped() -> None:
    """A `with torch.no_grad()` around a generator's loop would leave grad off in the caller between items."""
    assert not automatic_fixes(list(analyze_units(source_units(_GEN), rules=["eval-without-no-grad"]).findings))


_INPLACE = """import torch
import torch.nn as nn
import torch.nn.functional as F

X = torch.randn(64, 4)
out = []
for i in range(4):
    t = torch.full((4,), 0.5)
    h = F.dropout(t, 0.5, training=True, inplace=True)
    out.append(h.sum().item())
for i in range(4):
    t = torch.full((4,), -0.5)
    torch.add(t, X[i], out=t)
    out.append(t.sum().item())
for i in range(4):
    t = torch.ones(4, 4)
    nn.init.orthogonal_(t)
    out.append(t.sum().item())
for i in range(4):
    acc = torch.zeros(4)
    torch.cumsum(X[i], 0, out=acc)
    out.append(acc.sum().item())
"""


def test_tensors_written_in_place_by_torch_calls_are_not_hoisted() -> None:
    assert not automatic_fixes(list(analyze_units(source_units(_INPLACE), rules=["redundant-tensor"]).findings))
