"""`api.rewrite`: every automatic fix, re-analysed until none is left, meaning kept."""

from __future__ import annotations

from paef_jupyter.api import analyze, rewrite
from paef_jupyter.model import CellRef, SourceUnit
from rule_fixtures import assert_same, run_fixture

CHAIN = '''import numpy as np
import torch

raw = np.arange(12, dtype=np.float64).reshape(4, 3) + 1.0
out = []
for step in range(3):
    norms = np.linalg.norm(raw, axis=1, keepdims=True)
    feats = torch.tensor(raw / norms, dtype=torch.float32)
    out.append((feats * step).sum())
result = torch.stack(out)
'''


def test_a_fix_that_uncovers_another_is_followed_to_the_end() -> None:
    [done] = rewrite([SourceUnit(CellRef("chain.py"), CHAIN)])
    assert done.applied and done.applied[0].rule == "cpu-function"
    body = done.text.split("for step in range(3):")[1]
    assert "np.linalg.norm" not in body and "torch.tensor(raw / norms" not in body
    assert_same(run_fixture(CHAIN, "before"), run_fixture(done.text, "after"))
    again = analyze([SourceUnit(CellRef("chain.py"), done.text)])
    assert not any(f.fixable for f in again.findings)


def test_nothing_to_fix_leaves_text_alone() -> None:
    text = "import torch\nx = torch.zeros(3)\nresult = x\n"
    [done] = rewrite([SourceUnit(CellRef("ok.py"), text)])
    assert done.text == text and done.applied == ()
