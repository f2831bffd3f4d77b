"""Red team 42 (blind, 10 programs, 3 notebooks) met 5 automatic rewrites on first contact; 3 changed
a program's meaning, all redundant-tensor hoists of a read of a parametrized tensor. After
`register_parametrization(layer, "weight", p)` or `parametrizations.spectral_norm(layer)`,
`layer.weight` is a property: every read runs the parametrization. Spectral norm's power iteration
updates its `_u`/`_v` vectors on each read in training mode; a DropConnect parametrization draws a
mask on each read. `torch.zeros_like(enc.weight)` or a snapshot of `first.weight` hoisted out of the
loop ran that code once instead of once per iteration, so the random stream and the vectors changed.
Fixed by category: a hoist that reads an attribute whose name the program parametrizes (anywhere,
on an object that is not a plain value) goes to review. Reads of other tensors, and weights of the
hook-based `torch.nn.utils.spectral_norm` / `weight_norm` (recomputed only by a forward), still hoist.
"""

from __future__ import annotations

import pytest
from redteam_units import REDTEAM, program_units, rule_findings, source_units

_HEAD = ("import torch\nimport torch.nn as nn\nimport torch.nn.utils.parametrize as P\n"
         "from torch.nn.utils.parametrizations import spectral_norm, weight_norm, orthogonal\n"
         "class Drop(nn.Module):\n    def forward(self, w):\n        return w * (torch.rand_like(w) > 0.3).to(w.dtype)\n")
_LOOP = "out = []\nfor k in range(3):\n    ref = {read}\n    out.append(ref.sum().item() + torch.randn(1).item())\n"


def _hoists(setup: str, read: str) -> list:
    units = source_units(_HEAD + setup + _LOOP.format(read=read))
    return [f for f in rule_findings(units, "redundant-tensor") if "before the loop" in f.fix.description]


# The loop reads a tensor the program parametrizes: every read runs the parametrization.
FIRING = {
    "random_mask": ("enc = nn.Linear(5, 4)\nP.register_parametrization(enc, 'weight', Drop())\n",
                    "torch.zeros_like(enc.weight)"),
    "spectral_norm_snapshot": ("disc = nn.Sequential(spectral_norm(nn.Linear(4, 3)))\nfirst = disc[0]\n",
                               "torch.tensor(first.weight.detach().tolist())"),
    "shape_of_the_read": ("enc = nn.Linear(5, 4)\nP.register_parametrization(enc, 'weight', Drop())\n",
                          "torch.ones(enc.weight.shape)"),
    "named_by_keyword_through_alias": ("reg = P.register_parametrization\nenc = nn.Linear(5, 4)\n"
                                       "reg(enc, tensor_name='bias', parametrization=Drop())\n",
                                       "torch.zeros_like(enc.bias)"),
    "computed_name": ("which = 'we' + 'ight'\nenc = nn.Linear(5, 4)\nP.register_parametrization(enc, which, Drop())\n",
                      "torch.zeros_like(enc.weight)"),
    "weight_norm_name_keyword": ("enc = weight_norm(nn.Linear(5, 4), name='bias', dim=None)\n",
                                 "torch.zeros_like(enc.bias)"),
    "orthogonal_default_name": ("enc = orthogonal(nn.Linear(4, 4))\n", "torch.zeros_like(enc.weight)"),
    "read_in_a_program_function": ("def weight_shape(m):\n    return m.weight.shape\n"
                                   "enc = nn.Linear(5, 4)\nP.register_parametrization(enc, 'weight', Drop())\n",
                                   "torch.zeros(weight_shape(enc))"),
    "read_two_functions_deep": ("def rows(m):\n    return m.weight.shape[0]\ndef size(m):\n    return (rows(m), 2)\n"
                                "enc = nn.Linear(5, 4)\nP.register_parametrization(enc, 'weight', Drop())\n",
                                "torch.zeros(size(enc))"),
}

# No parametrization runs on the read: still an automatic hoist.
SILENT = {
    "other_tensor_of_a_parametrized_layer": ("enc = nn.Linear(5, 4)\nP.register_parametrization(enc, 'weight', Drop())\n",
                                             "torch.zeros_like(enc.bias)"),
    "hook_based_spectral_norm": ("from torch.nn.utils import spectral_norm as sn_hook\ndisc = sn_hook(nn.Linear(4, 3))\n",
                                 "torch.zeros_like(disc.weight)"),
    "hook_based_weight_norm": ("from torch.nn.utils import weight_norm as wn_hook\ngen = wn_hook(nn.Linear(4, 3))\n",
                               "torch.ones(gen.weight.shape)"),
    "predicate_only": ("enc = nn.Linear(5, 4)\nflag = P.is_parametrized(enc)\n", "torch.zeros_like(enc.weight)"),
    "no_parametrization": ("enc = nn.Linear(5, 4)\n", "torch.zeros_like(enc.weight)"),
    "program_function_reads_another_tensor": ("def bias_shape(m):\n    return m.bias.shape\n"
                                              "enc = nn.Linear(5, 4)\nP.register_parametrization(enc, 'weight', Drop())\n",
                                              "torch.zeros(bias_shape(enc))"),
    "parametrizations_container": ("enc = nn.Linear(5, 4)\nP.register_parametrization(enc, 'weight', Drop())\n",
                                   "torch.zeros_like(enc.parametrizations.weight.original)"),
    "pruned_weight": ("import torch.nn.utils.prune as prune\nenc = nn.Linear(5, 4)\n"
                      "prune.l1_unstructured(enc, 'weight', amount=0.5)\n", "torch.zeros_like(enc.weight)"),
}


@pytest.mark.parametrize("name", sorted(FIRING))
def test_a_hoisted_read_of_a_parametrized_tensor_goes_to_review(name: str) -> None:
    found = _hoists(*FIRING[name])
    assert found, name
    assert all(not f.fix.automatic and "parametrizes" in f.fix.review for f in found), name


@pytest.mark.parametrize("name", sorted(SILENT))
def test_a_read_no_parametrization_runs_is_still_hoisted(name: str) -> None:
    found = _hoists(*SILENT[name])
    assert found and all(f.fix.automatic for f in found), name


@pytest.mark.parametrize("program", ["rt42_dropconnect_weights.py", "rt42_sn_discriminator_probe.py"])
def test_the_blind_wave_hoists_of_parametrized_reads_go_to_review(program: str) -> None:
    found = [f for f in rule_findings(program_units(REDTEAM / program), "redundant-tensor")
             if "before the loop" in f.fix.description]
    assert found and not any(f.fix.automatic for f in found)


def test_the_blind_wave_keeps_its_pruned_snapshot_hoist() -> None:
    """Pruning recomputes `fc.weight` in a forward pre-hook, not on a read: the report loop (no
    forward) reads the same tensor every iteration, and the hoist stays automatic."""
    found = [f for f in rule_findings(program_units(REDTEAM / "rt42_prune_schedule.py"), "redundant-tensor")
             if "before the loop" in f.fix.description]
    assert len(found) == 1 and found[0].fix.automatic


def test_the_probe_reading_the_weight_in_a_helper_goes_to_review() -> None:
    found = [f for f in rule_findings(program_units(REDTEAM / "rt42p_rt_parametrized_helper.py"), "redundant-tensor")
             if "before the loop" in f.fix.description]
    assert found and not any(f.fix.automatic for f in found)
