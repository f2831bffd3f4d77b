"""Recall 59 (issue 8): two elementwise-loop misses fixed by the fact the analysis lacked, each new
finding a hint (`benchmarks/results/recall59.md`).

1. A configured size: `for next_tag in range(self.tagset_size)` covers the rows of
   `self.transitions`, built in `__init__` as `nn.Parameter(torch.randn(self.tagset_size, ...))`
   (`rules/_configured_sizes.py`), and a pure program helper of row ops (`log_sum_exp`) counts
   as its body in a per-row loop.
   The same per-row hints also take a local bound to a tensor's size (`n = len(t)`; `range(n)`).
2. A tensor's rows walked on the host: YOLO's `for b, c, x, y, w, h in targets.tolist()` writing
   each row's computed cell into fresh target tensors (`rules/_host_row_writes.py`).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from paef_jupyter.api import analyze_path, analyze_source
from paef_jupyter.model import CellRef

CORPUS = Path(__file__).resolve().parent.parent / "benchmarks" / "corpus"
EL = "elementwise-loop"


def _findings(source: str) -> dict[int, bool]:
    report = analyze_source(source, CellRef("t.py"), rules=[EL])
    assert not report.errors
    return {f.line: f.fix is not None and bool(f.fix.edits) for f in report.findings if f.rule == EL}


@pytest.mark.parametrize(("program", "line"), [("blind5_bilstm_crf.py", 59), ("blind4_yolo_targets.py", 73)])
def test_corpus_labels_are_hints(program: str, line: int) -> None:
    found = [f for f in analyze_path(str(CORPUS / program), rules=[EL]).findings if f.line == line]
    assert len(found) == 1 and not found[0].fixable and found[0].fix is not None and not found[0].fix.edits


def test_crf_viterbi_loop_stays_silent() -> None:
    """The decoding loop (two lists, a host index kept as a back-pointer) is labelled `ok`."""
    lines = {f.line for f in analyze_path(str(CORPUS / "blind5_bilstm_crf.py"), rules=[EL]).findings}
    assert 82 not in lines


_MODULE = """import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.n = n
        self.w = nn.Parameter(torch.randn({dims}))
{extra}
    def forward(self, x):
        outs = []
        for i in range(self.n):
            outs.append(torch.tanh(x + self.w[i]))
        return torch.stack(outs)


result = M(2)(torch.randn(3))
"""


@pytest.mark.parametrize(("dims", "extra", "fires"), [
    ("self.n, 3", "", True),
    ("n, 3", "", True),
    ("3, self.n", "", False),  # the size of the second dimension
    ("4, 3", "", False),  # a literal: nothing ties it to `self.n`
    ("self.n, 3", "\n    def grow(self):\n        self.n += 1\n", False),  # the size changes after `__init__`
    ("n, 3", "\n    def reset(self, rows):\n        self.w = nn.Parameter(torch.randn(rows, 3))\n", False),
])
def test_configured_size_twins(dims: str, extra: str, fires: bool) -> None:
    found = _findings(_MODULE.format(dims=dims, extra=extra))
    assert (set(found) == {13}) if fires else not found, found
    assert not any(found.values())  # hints only


_HELPER = """import torch


def lse(vec):
    top = vec.max()
    return top + torch.log(torch.exp(vec - top).sum()){extra}


def rows(logits):
    out = []
    for r in range(len(logits)):
        out.append({call})
    return torch.stack(out)


result = rows(torch.randn(3, 4))
"""


@pytest.mark.parametrize(("extra", "call", "fires"), [
    ("", "lse(logits[r])", True),
    ("", "lse(logits[r]) * torch.rand(1)", False),  # random per row
    ("\n\n\ndef pick(v):\n    return v.argmax().item()", "logits[r][pick(logits[r])]", True),  # a host index: a gather
    ("\n\n\ndef pick(v):\n    return v.argmax().item()", "torch.tensor(pick(logits[r]))", False),  # a value read back
    ("\n\n\nSEEN = []\n\n\ndef keep(v):\n    SEEN.append(v)\n    return v.sum()", "keep(logits[r])", False),
])
def test_row_helper_twins(extra: str, call: str, fires: bool) -> None:
    found = _findings(_HELPER.format(extra=extra, call=call))
    assert (bool(found)) is fires, found


def test_module_attribute_call_is_no_row_op() -> None:
    source = _MODULE.format(dims="self.n, 3", extra="").replace(
        "        self.w = nn.Parameter", "        self.lin = nn.Linear(3, 3)\n        self.w = nn.Parameter").replace(
        "torch.tanh(x + self.w[i])", "self.lin(x + self.w[i])")
    assert _findings(source) == {}


_ROWS = """import torch


def build(kps, n):
    heat = torch.zeros(n, 8, 8)
    for b, x, y in {rows}:
{body}
    return heat


result = build({arg}, 2)
"""


@pytest.mark.parametrize(("rows", "body", "fires"), [
    ("kps.tolist()", "        heat[int(b), int(y * 8), int(x * 8)] = 1.0", True),
    ("kps.tolist()", "        cx = int(x * 8)\n        heat[int(b), 0, cx] = y", True),
    ("kps", "        heat[int(b), int(y * 8), int(x * 8)] = 1.0", False),  # Python data
    ("kps.tolist()", "        heat[0, 0, 0] = x", False),  # the same place every row
    ("kps.tolist()", "        if x < 0:\n            continue\n        heat[int(b), int(y * 8), int(x * 8)] = 1.0", False),
    ("kps.tolist()", "        heat[int(b), int(y * 8), int(x * 8)] = heat[int(b), 0, 0] + 1", False),  # reads its target
    ("kps.tolist()", "        heat[int(b), int(y * 8), int(x * 8)] = torch.rand(1)", False),  # random
])
def test_host_row_writes_twins(rows: str, body: str, fires: bool) -> None:
    arg = "[(0, 0.5, 0.5)]" if rows == "kps" else "torch.tensor([[0, 0.5, 0.5]])"
    source = _ROWS.format(rows=rows, body=body, arg=arg)
    found = _findings(source)
    assert (6 in found) is fires, found
    assert not any(found.values())


def test_host_row_writes_into_a_parameter_stay_silent() -> None:
    source = _ROWS.format(rows="kps.tolist()", body="        heat[int(b), int(y * 8), int(x * 8)] = 1.0",
                          arg="torch.tensor([[0, 0.5, 0.5]])").replace(
        "def build(kps, n):\n    heat = torch.zeros(n, 8, 8)", "def build(kps, heat):").replace(", 2)", ", torch.zeros(2, 8, 8))")
    assert _findings(source) == {}


_NAMED = """import torch


def rows(t):
{before}    outs = []
    for i in range(n):
        outs.append(torch.tanh(t[i]))
    return torch.stack(outs)


result = rows(torch.randn(4, 3))
"""


@pytest.mark.parametrize(("before", "fires"), [
    ("    n = len(t)\n", True),
    ("    n = t.shape[0]\n", True),
    ("    n = t.size(1)\n", False),  # another dimension
    ("    n = len(t)\n    t = torch.randn(2, 3)\n", False),  # rebound after the measure
    ("    n = len(t)\n    n += 1\n", False),  # the bound changed
])
def test_named_size_twins(before: str, fires: bool) -> None:
    found = _findings(_NAMED.format(before=before))
    assert bool(found) is fires, found
    assert not any(found.values())
