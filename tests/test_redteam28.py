"""Red team 28: the dtype analysis ignored type promotion (`mask * 1`, `torch.sum(mask, 1)` and
`mask.logical_not() * 1` are int64, not bool; `counts.pow(-0.5)`, `torch.clamp(hits, min=0.3)`,
`hits.where(c, 0.25)` of an int64 tensor are float32, not int64), so record-buffer rebuilt
sampled rows with `.to(torch.bool)` / `.to(torch.int64)` and host-sync summed float values of
"int64" totals in float32; and dict-as-list judged a column by the dict literal alone, missing the
writes after it (a column rebound to ragged rows or to ints mixed with an imputed float, rows cut
in place, `extend`) that make converting the whole column differ from converting each batch.

The dtype cases are checked against torch itself: the analysis must give the dtype torch gives,
its family, or None (unknown), never a wrong one."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

from dtype_cases import assert_dtype_agrees
from paef_cli import fix_keeps_output
from cell_findings import cell_findings

from paef_jupyter.api import analyze_path
from paef_jupyter.static.rules._tensor_facts import dtype_of, family
from test_facts import facts_of

REDTEAM = Path(__file__).resolve().parent.parent / "benchmarks" / "redteam"
PROGRAMS = ["rt28_rb_count_bonus_replay.py", "rt28_dal_columns_reworked_before_training.py",
            "rt28b_hs_promoted_totals_on_device.py", "rt28b_rb_vector_env_columns.py", "rt28b_dal_timestamps_imputed.py",
            ]


@pytest.mark.parametrize("program", PROGRAMS)
def test_fix_keeps_the_output(tmp_path: Path, program: str) -> None:
    """Fails on 070d764: sampled rows rebuilt as bool / int64, float totals summed in float32, a
    ragged or mixed column converted whole."""
    fix_keeps_output(tmp_path, REDTEAM / program)


SETUP = ("mask = torch.arange(6) > 2\ncounts = torch.arange(1, 7)\nsmall = counts.int()\nx = torch.randn(6)\n"
         "xd = torch.randn(6, dtype=torch.float64)\n")


@pytest.mark.parametrize("code", [
    # bool with a Python int: int64
    "mask * 1", "mask + 0", "1 * mask", "torch.add(mask, 1)", "mask.logical_not() * 1", "(x > 0) * 2",
    # sums / products of bool or narrow ints: int64
    "torch.sum(mask)", "torch.sum(mask, dim=0)", "mask.cumsum(0)", "torch.cumsum(mask, 0)", "mask.prod()",
    "small.sum()", "small.cumsum(0)",
    # promotion with a float argument: float32
    "counts.pow(-0.5)", "counts.pow(0.75)", "torch.pow(counts, 0.5)", "counts.clamp(min=0.3)",
    "torch.clamp(counts, min=0.3)", "counts.clip(0.5, 3)", "counts.where(mask, 0.25)", "torch.max(counts, x)",
    "counts.max(x)",
    # near misses: the dtype is kept
    "counts.pow(2)", "counts.clamp(min=1)", "torch.clamp(counts, 0, 3)", "x.pow(0.5)", "x.clamp(min=0.3)",
    "xd.clamp(min=0.3)", "xd.pow(-0.5)", "x.where(mask, 0.0)", "mask & mask", "mask * mask", "(x > 0).sum()",
    "x.sum()", "xd.cumsum(0)", "counts * 3", "small * 2", "counts.max(0)[0]", "torch.max(x)",
])
def test_dtype_of_follows_promotion(code: str) -> None:
    assert_dtype_agrees(SETUP, code)


@pytest.mark.parametrize("code", ["mask * 1", "torch.sum(mask, dim=0)", "counts.pow(-0.5)", "torch.clamp(counts, min=0.3)",
                                  "counts.pow(2)", "x.clamp(min=0.3)"])
def test_dtype_of_is_known_where_promotion_is_plain(code: str) -> None:
    """The fix does not give up: these are decided (so record-buffer / host-sync keep rewriting them)."""
    facts = facts_of(f"import torch\n{SETUP}y = {code}\ny\n")
    name = [n for n in facts.walk(facts.module) if isinstance(n, cst.Name) and n.value == "y"][-1]
    assert family(dtype_of(facts, name)) is not None


def test_notebook_columns_written_by_an_earlier_cell_are_refused() -> None:
    """rt28b_nb_columns_cleaned_in_earlier_cell: cell 3 cuts `data["cands"]` rows in place (ragged) and
    rebinds `data["price"]` (ints and a median float); cell 4's conversions of those stay per batch,
    `data["clicked"]` (untouched) is still converted once."""
    report = analyze_path(str(REDTEAM / "rt28b_nb_columns_cleaned_in_earlier_cell.ipynb"))
    fixable = {f.line: f.fixable for f in report.findings if f.rule == "dict-as-list"}
    # line 10 (`clicked`, untouched) was converted once automatically until red team 45: an int column's
    # empty selection converts to float32, and the batch slices are not proved non-empty
    assert fixable == {8: False, 9: False, 10: False}


DICT = 'import torch\nids = torch.randint(1, 9, (8, 4))\ndata = {"ids": ids.tolist(), "len": (ids[:, 0] % 3 + 1).tolist()}\n'
LOOP = ('out = []\nfor epoch in range(2):\n    for idx in [[0, 2], [1, 3], [4, 6], [5, 7]]:\n'
        '        x = torch.tensor([data["ids"][i] for i in idx])\n        out.append(x.sum().item())\n')


def _dict_as_list(*cells: str) -> list[tuple[int | None, int, bool]]:
    return cell_findings("dict-as-list", *cells)


@pytest.mark.parametrize("between", [
    'data["ids"] = [r[:n] for r, n in zip(data["ids"], data["len"])]\n',  # a cell that defines nothing
    'for k in range(8):\n    data["ids"][k] = data["ids"][k][:2]\n',
    'data["ids"].extend([[1, 2]])\n',
    'rows = data["ids"]\n',
    'data.update(ids=[[1]])\n',
])
def test_an_earlier_cell_writing_the_column_refuses(between: str) -> None:
    assert _dict_as_list(DICT, between, LOOP) == [(2, 4, False)]


@pytest.mark.parametrize("between", ['print(len(data["ids"]))\n', 'n = sum(len(r) for r in data["ids"])\n',
                                     'first = data["ids"][0][0] + 1\n', "print('ready')\n"])
def test_an_earlier_cell_reading_the_column_keeps_the_rewrite(between: str) -> None:
    assert _dict_as_list(DICT, between, LOOP) == [(2, 4, True)]
