"""Red team 35 (blind) found automatic rewrites that changed what a program prints, in three
categories, each now left to review or refused:

- elementwise-loop vectorised `out[i] = (x[i] - mean) / std` with `mean` a 0-d float64 tensor
  (and `(ids[i] * GOLDEN) % B` with an int64 constant over int32 ids): 0-d element reads promote
  against such an operand, the whole tensor does not, so the values round (or wrap) otherwise;
- cpu-function hoisted `standardise(raw)` whose result the loop hands to an augmentation object
  (`augment(feats)`, a `Compose` of in-place transforms defined in an earlier cell): only
  functions called by name were followed, not objects called like functions;
- pageable-transfer pinned a loader whose collate returns a tuple subclass (`PaddedBatch`):
  pinning rebuilds it as `type(batch)(<generator>)`, which its `__new__` does not take (GPU-only).
"""

from __future__ import annotations

import pytest
from redteam_units import REDTEAM, automatic_fixes, program_units, rule_findings, source_units


@pytest.mark.parametrize("program,rule", [
    ("rt35_el_float64_stats.py", "elementwise-loop"),
    ("rt35_nb_el_feature_hash.ipynb", "elementwise-loop"),
    ("rt35_nb_cf_gain_augment.ipynb", "cpu-function"),
    ("rt35_pt_tuple_batch_lengths.py", "pageable-transfer"),
])
def test_red_team_35_rewrites_are_no_longer_automatic(program: str, rule: str) -> None:
    found = rule_findings(program_units(REDTEAM / program), rule)
    assert found and not automatic_fixes(found)


LOOP = '''import math
import numpy as np
import torch
x = torch.randn(16)
{setup}
out = torch.empty_like(x)
for i in range(len(x)):
    out[i] = {expr}
'''


@pytest.mark.parametrize("setup,expr", [
    ("m = torch.tensor(np.float64(0.5))", "x[i] - m"),
    ("s = x.abs().max().double()", "x[i] / s"),
    ("w = torch.ones(1, dtype=torch.float64)", "torch.clamp(x[i] * w, -1, 1)"),
    ("lo = x.min()", "x[i].clamp(lo)"),
])
def test_an_operand_that_may_be_a_tensor_leaves_the_vectorised_loop_to_review(setup: str, expr: str) -> None:
    found = rule_findings(source_units(LOOP.format(setup=setup, expr=expr)), "elementwise-loop")
    assert found and not automatic_fixes(found)
    assert any(f.fix is not None and f.fix.needs_review for f in found)


def test_a_parameter_operand_is_not_proved_a_number() -> None:
    text = ("import torch\ndef scaled(c):\n    t = torch.randn(8)\n    o = torch.empty_like(t)\n    for j in range(len(t)):\n"
            "        o[j] = t[j] * c\n    return o\n")
    found = rule_findings(source_units(text), "elementwise-loop")
    assert found and not automatic_fixes(found)


@pytest.mark.parametrize("setup,expr", [
    ("", "x[i] * 2 + 1"),
    ("eps = 1e-6", "x[i] / (1 + eps)"),
    ("n = len(x)", "x[i] * n"),
    ("c = x.mean().item()", "x[i] - c"),
    ("r = math.sqrt(2.0)", "torch.tanh(x[i]) * r"),
])
def test_python_number_operands_keep_the_vectorised_loop_automatic(setup: str, expr: str) -> None:
    found = rule_findings(source_units(LOOP.format(setup=setup, expr=expr)), "elementwise-loop")
    assert automatic_fixes(found)


HOIST = '''import numpy as np
{setup}
raw = np.ones((4, 3))
out = []
for epoch in range(3):
    feats = np.log1p(raw)
    {use}
    out.append(float(feats.sum()))
'''


@pytest.mark.parametrize("setup,use", [
    ("class Gain:\n    def __call__(self, a):\n        a *= 1.1\n        return a\naug = Gain()", "feats = aug(feats)"),
    ("class Clip:\n    def __call__(self, a):\n        np.clip(a, 0, 1, out=a)\n        return a\naug = Clip()", "aug(feats)"),
    ("class Chain:\n    def __init__(self, fs):\n        self.fs = fs\n    def __call__(self, a):\n        for f in self.fs:\n"
     "            a = f(a)\n        return a\nclass Neg:\n    def __call__(self, a):\n        a *= -1\n        return a\n"
     "aug = Chain([Neg()])", "feats = aug(feats)"),
    ("from somewhere import augment as aug", "aug(feats)"),
])
def test_a_hoisted_result_handed_to_a_changing_callable_object_is_not_hoisted(setup: str, use: str) -> None:
    found = rule_findings(source_units(HOIST.format(setup=setup, use=use)), "cpu-function")
    assert found and not automatic_fixes(found)


@pytest.mark.parametrize("setup,use", [
    ("class Scale:\n    def __call__(self, a):\n        return a * 1.1\naug = Scale()", "scaled = aug(feats)"),
    ("def energy(a):\n    return float((a ** 2).sum())", "e = energy(feats)"),
    ("", "c = np.clip(feats, 0, 1)"),
])
def test_a_hoisted_result_only_read_by_callables_is_still_hoisted(setup: str, use: str) -> None:
    found = rule_findings(source_units(HOIST.format(setup=setup, use=use)), "cpu-function")
    assert automatic_fixes(found)


LOADER = '''import os
import torch
from torch.utils.data import DataLoader, TensorDataset
{classes}
def collate(rows):
    x = torch.stack([r[0] for r in rows])
    return {batch}
loader = DataLoader(TensorDataset(torch.randn(8, 2)), batch_size=4, collate_fn=collate, num_workers=2)
for b in loader:
    x = b[0].to("cuda")
'''


@pytest.mark.parametrize("classes,batch", [
    ("class Batch(tuple):\n    pass", "Batch([x])"),
    ("class Batch(tuple):\n    def __new__(cls, x, n):\n        return super().__new__(cls, (x,))", "Batch(x, 4)"),
    ("class Batch(tuple):\n    pass\nclass Padded(Batch):\n    pass", "Padded([x])"),
    ("class Rec:\n    def __init__(self, x):\n        self.x = x\n    def __getitem__(self, i):\n        return self.x\n"
     "    def pin_memory(self):\n        return Rec(self.x.half().pin_memory())", "Rec(x)"),
    ("class Frozen(dict):\n    def __setitem__(self, k, v):\n        raise TypeError('frozen')", "Frozen({0: x})"),
    ("from typing import NamedTuple\nclass B(NamedTuple):\n    x: torch.Tensor\n    def __new__(cls, x):\n"
     "        return super().__new__(cls, x)", "B(x)"),
])
def test_pinning_batches_of_a_class_it_rebuilds_is_left_to_review(classes: str, batch: str) -> None:
    found = rule_findings(source_units(LOADER.format(classes=classes, batch=batch)), "pageable-transfer")
    assert found and not automatic_fixes(found)
    assert any(f.fix is not None and f.fix.needs_review for f in found)


@pytest.mark.parametrize("classes,batch", [
    ("", "(x,)"),
    ("from typing import NamedTuple\nclass B(NamedTuple):\n    x: torch.Tensor", "B(x)"),
    ("class Enc(dict):\n    def to(self, d):\n        return Enc({k: v.to(d) for k, v in self.items()})", "Enc({0: x})"),
    ("class Holder:\n    pass", "[x]"),
])
def test_pinning_plain_batches_stays_automatic(classes: str, batch: str) -> None:
    found = rule_findings(source_units(LOADER.format(classes=classes, batch=batch)), "pageable-transfer")
    assert automatic_fixes(found)


SNAPSHOT = '''import torch
from torch import nn
{setup}
out = []
for step in range(2):
    t = torch.tensor(src.tolist())
    out.append(t.view(-1)[:2])
'''


@pytest.mark.parametrize("setup", [
    "net = nn.Conv2d(3, 4, 3).eval()\nnet.to(memory_format=torch.channels_last)\nwith torch.no_grad():\n"
    "    src = net(torch.randn(2, 3, 5, 5)).float()",
    "src = torch.einsum('ij->ji', torch.randn(3, 4))",
    "src = torch.randn(3, 4) * 1",
    "src = torch.randn(3, 4)\nsrc.t_()",
])
def test_a_list_round_trip_is_rewritten_row_major(setup: str) -> None:
    """Red team 35 probe: a source strided by code no view spelling shows (a channels_last model's
    output, an `einsum` permutation) made `.detach()` keep strides the list round trip did not:
    `.view(-1)` raised. The rewrite now ends the copy with `.contiguous()` unless the source is proved
    row-major."""
    (finding,) = rule_findings(source_units(SNAPSHOT.format(setup=setup)), "ping-pong")
    assert finding.fix is not None and finding.fix.automatic and ".detach().contiguous()" in finding.fix.suggestion


@pytest.mark.parametrize("setup", ["src = torch.randn(3, 4)", "src = torch.zeros(3, 4).detach()",
                                   "src = torch.arange(12.0)"])
def test_a_fresh_factory_source_needs_no_contiguous(setup: str) -> None:
    """A source bound from a torch factory and never changed in place is already row-major: the
    rewrite stays `src.detach()` (what users read in the demo and the notebook view)."""
    (finding,) = rule_findings(source_units(SNAPSHOT.format(setup=setup)), "ping-pong")
    assert finding.fix is not None and finding.fix.automatic and ".contiguous()" not in finding.fix.suggestion


def test_a_broadcast_source_is_a_strided_view() -> None:
    (finding,) = rule_findings(source_units(SNAPSHOT.format(setup="src = torch.broadcast_to(torch.randn(1, 4), (3, 4)).float()")),
                           "ping-pong")
    assert not finding.fixable
