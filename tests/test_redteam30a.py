"""Red team 30a: four facts the automatic rewrites of ping-pong and dict-as-list lacked.

- ping-pong's `torch.tensor(x.tolist())` -> `x.detach()` shares `x`'s memory, so it clones when `x`
  is changed in place later. It looked for such changes only in the function making the copy: a
  module-level tensor changed by another function (`update_centroids`, `track`), a parameter
  changed by the caller, `self.avg` by another method, are changed where that function does not
  show it (`_outside_objects.reached_outside`): the snapshot then followed the source.
- `dtype_of` took every `torch.nn.functional` op for "some float": nearest `F.interpolate` keeps a
  uint8 map, `F.embedding` gives its table's dtype (int64), pooling / `F.linear` / dropout keep an
  integer input; `torch.bucketize(..., out_int32=True)` is int32, not int64. The rewrite then added
  `.float()` (an int64 index became float32) or no `.long()` (`F.one_hot` raised on int32).
- dict-as-list judged a value appended to a column by the name's one visible binding (`NOW = START`)
  while a function declared it `global` and rebound it to a float; and took `d.copy()` (and missed
  `{**d}`) for a read, though a shallow copy holds the same column lists, written through it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cell_findings import cell_findings
from dtype_cases import assert_dtype_agrees
from paef_cli import fix_keeps_output

from paef_jupyter.api import analyze_path
from paef_jupyter.model import CellRef, SourceUnit
from paef_jupyter.static.analyzer import analyze_units

REDTEAM = Path(__file__).resolve().parent.parent / "benchmarks" / "redteam"
# Harmful at first contact on 5e08a0e (wave 1: 4, wave 2: 3 with the notebook below).
PROGRAMS = ["rt30a_pp_global_centroids_snapshot.py", "rt30a_pp_bucketize_int32_ids.py",
            "rt30a_dal_negatives_at_clock_time.py", "rt30a2_pp_loss_trend_ema.py", "rt30a2_dal_report_copy_imputes.py",
            # held at first contact (no automatic rewrite of the attacked rules)
            "rt30a_pp_margin_logits_astype.py", "rt30a_rt_class_weights_through_config.py",
            "rt30a2_rt_class_freq_numpy_view.py"]


@pytest.mark.parametrize("program", PROGRAMS)
def test_fix_keeps_the_output(tmp_path: Path, program: str) -> None:
    fix_keeps_output(tmp_path, REDTEAM / program)


def test_notebook_parent_ids_keep_int64() -> None:
    """`F.embedding` of an int64 table: the rewrite must not add `.float()` (the ids feed an embedding)."""
    report = analyze_path(str(REDTEAM / "rt30a_nb_pp_parent_ids_embedding_table.ipynb"))
    fixes = [f.fix for f in report.findings if f.rule == "ping-pong" and f.fixable]
    assert fixes and all(".float()" not in fix.suggestion for fix in fixes if fix is not None)


def test_notebook_column_shared_by_a_spread_copy_is_refused() -> None:
    report = analyze_path(str(REDTEAM / "rt30a2_nb_dal_cleaned_view_spread.ipynb"))
    assert sorted(f.line for f in report.findings if f.rule == "dict-as-list" and f.fixable) == [7, 8]


SETUP = ("import torch\nimport torch.nn.functional as F\nu8 = torch.randint(0, 3, (1, 1, 4, 4), dtype=torch.uint8)\n"
         "i64 = u8.long()\nf32 = u8.float()\ntable = torch.arange(5)[:, None]\nedges = torch.tensor([0.5, 1.5])\n")


@pytest.mark.parametrize("code", ["F.interpolate(u8, size=(2, 2))", "F.interpolate(u8, scale_factor=0.5, mode='nearest-exact')",
                                  "F.interpolate(f32, size=(2, 2))", "F.avg_pool2d(i64, 2)", "F.avg_pool2d(f32, 2)",
                                  "F.dropout(i64, training=False)", "F.linear(i64[0, 0], i64[0, 0])", "F.conv2d(i64, i64[:, :, :2, :2])",
                                  "F.embedding(torch.tensor([1, 3]), table)", "F.embedding(torch.tensor([1, 3]), table.float())",
                                  "torch.bucketize(f32, edges, out_int32=True)", "torch.bucketize(f32, edges)",
                                  "torch.searchsorted(edges, f32.flatten(), out_int32=True)", "torch.searchsorted(edges, f32.flatten())",
                                  "F.interpolate(u8, size=(2, 2)).squeeze(1)"])
def test_dtype_of_functional_ops_follows_torch(code: str) -> None:
    assert_dtype_agrees(SETUP, code)


@pytest.mark.parametrize(("code", "clone"), [
    # a global changed in place by another function
    ("s = torch.zeros(3)\n\ndef bump():\n    s.add_(1.0)\n\ndef f():\n    b = torch.tensor(s.tolist())\n    bump()\n    return (s - b).sum()\n", True),
    # a parameter (its caller changes it after the call)
    ("s = torch.zeros(3)\n\ndef f(t):\n    b = torch.tensor(t.cpu().numpy())\n    return b\n", True),
    # a local alias of a global
    ("s = torch.zeros(3)\n\ndef f():\n    v = s[:2]\n    b = torch.tensor(v.tolist())\n    return b\n", True),
    # a fresh local: nothing outside the function holds it
    ("s = torch.zeros(3)\n\ndef f():\n    v = s * 2.0\n    b = torch.tensor(v.tolist())\n    return b\n", False),
])
def test_round_trip_source_reached_from_outside_clones(code: str, clone: bool) -> None:
    call = "f(s)" if "def f(t)" in code else "f()"
    program = "import torch\n" + code + f"for step in range(3):\n    r = {call}\n    s.mul_(2.0)\n"
    found = [f for f in analyze_units([SourceUnit(CellRef("p.py", None), program)], rules=["ping-pong"]).findings
             if f.fixable]
    assert len(found) == 1 and found[0].fix is not None and (".clone()" in found[0].fix.suggestion) == clone


@pytest.mark.parametrize(("code", "fixable"), [
    ("d = {'t': [5, 6, 7, 8]}\nc = d.copy()\nc['t'][0] = 0.5\n", False),
    ("d = {'t': [5, 6, 7, 8]}\nc = {**d}\nc['t'].append(0.5)\n", False),
    ("d = {'t': [5, 6, 7, 8]}\nc = {**d, 't': [1.5]}\nc['t'].append(0.5)\n", True),
    ("d = {'t': [5, 6, 7, 8]}\nc = d.copy()\nn = len(c['t'])\n", True),
    ("d = {'t': [5, 6, 7, 8]}\nX = 1\n\ndef g():\n    global X\n    X = 0.5\n\ng()\nd['t'].append(X)\n", False),
    # the column is written (with an int): whether a selection may be empty is not followed through writes (red team 45)
    ("d = {'t': [5, 6, 7, 8]}\nX = 1\n\ndef g():\n    X = 0.5\n    return X\n\ng()\nd['t'].append(X)\n", False),
])
def test_dict_columns_written_through_copies_and_globals(code: str, fixable: bool) -> None:
    loop = "out = []\nfor e in range(2):\n    for i in range(0, 4, 2):\n        out.append(torch.tensor(d['t'][i:i + 2]).sum())\n"
    assert [f[2] for f in cell_findings("dict-as-list", "import torch\n" + code + loop)] == [fixable]
