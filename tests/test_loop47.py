"""Per-sample module calls over a batch (`elementwise-loop`): a low-severity hint, never a rewrite."""

from __future__ import annotations

from pathlib import Path

import pytest

from paef_jupyter.model import Severity
from paef_jupyter.api import analyze_source

FIXTURES = Path(__file__).parent / "fixtures" / "rules" / "elementwise-loop"


def _hints(source: str) -> list:
    return [f for f in analyze_source(source).findings if f.rule == "elementwise-loop"]


def test_per_sample_calls_are_low_hints_without_rewrite() -> None:
    found = _hints((FIXTURES / "pos_per_sample_module_calls.py").read_text())
    assert [f.line for f in found] == [19, 34, 45, 54]
    for f in found:
        assert f.severity is Severity.LOW
        assert f.fix is not None and not f.fix.automatic
        assert "once on the batch" in f.fix.description and "index_select" in f.fix.description


@pytest.mark.parametrize("name", ["neg_per_sample_module_calls_near_misses.py", "neg_per_sample_module_calls_run_once.py",
                                  "neg_model_per_row.py"])
def test_near_misses_stay_silent(name: str) -> None:
    assert _hints((FIXTURES / name).read_text()) == []


def test_zip_of_range_and_a_tensor_names_the_batch() -> None:
    src = (
        "import torch\nimport torch.nn as nn\n\n\nclass M(nn.Module):\n"
        "    def __init__(self):\n        super().__init__()\n"
        "        self.experts = nn.ModuleList([nn.Linear(4, 4) for _ in range(2)])\n\n"
        "    def forward(self, x, idx):\n"
        "        return torch.stack([self.experts[k](x[b]) for b, k in zip(range(x.size(0)), idx)])\n"
    )
    (f,) = _hints(src)
    assert f.line == 11 and "`x`" in f.message and "`b`" in f.message


def test_per_cell_nests_are_low_hints_without_rewrite() -> None:
    found = _hints((FIXTURES / "pos_per_cell_ops.py").read_text())
    assert [f.line for f in found] == [10, 24]
    for f in found:
        assert f.severity is Severity.LOW and f.fix is not None and not f.fix.automatic
        assert "mask" in f.fix.description


def test_per_cell_near_misses_stay_silent() -> None:
    assert _hints((FIXTURES / "neg_per_cell_ops_near_misses.py").read_text()) == []

