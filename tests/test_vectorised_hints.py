"""The vectorised forms `elementwise-loop` (and `dict-as-list`) suggest in hints compute what the loops did:
each loop is run, then its finding's suggestion on the same data, and the results compared."""

from __future__ import annotations

import pytest
import torch

from paef_jupyter.api import analyze_source
from paef_jupyter.model import CellRef

SETUP = """import torch
g = torch.Generator().manual_seed(0)
scores = torch.randn(64, 20, generator=g)
targets = torch.randint(0, 20, (64,), generator=g)
topk = scores.topk(5, dim=1).indices
labels = torch.randint(0, 6, (64,), generator=g)
c = (scores.argmax(1) % 2 == 0).squeeze()
text = torch.arange(200) * 3
ix = torch.randint(0, 150, (16,), generator=g)
block = 7
B = 64
lengths = torch.randint(1, 21, (64,), generator=g)
hidden = torch.randn(64, 20, 41, generator=g)
"""

CASES = {
    "membership": ("hits", "hits = 0\nfor row, target in zip(topk, targets):\n    if target in row:\n        hits += 1\n"),
    "not-in": ("misses", "misses = 0\nfor i in range(len(targets)):\n    if targets[i] not in topk[i]:\n        misses += 1\n"),
    "class-totals-list": (
        "class_correct",
        "class_correct = list(0.0 for _ in range(6))\nfor i in range(len(labels)):\n"
        "    label = labels[i]\n    class_correct[label] += c[i].item()\n",
    ),
    "class-counts-tensor": (
        "counts",
        "counts = torch.zeros(6)\nfor i in range(len(labels)):\n    label = labels[i]\n    counts[label] += 1\n",
    ),
    "reciprocal-rank": (
        "mrr",
        "mrr = 0.0\nfor i in range(len(targets)):\n    rank = (topk[i] == targets[i]).nonzero()\n"
        "    if len(rank) > 0:\n        mrr += 1.0 / (rank.item() + 1)\n",
    ),
    "windows": ("xb", "xb = torch.stack([text[i : i + block] for i in ix])\n"),
    "shifted-windows": ("yb", "yb = torch.stack([text[i + 1 : i + 1 + block] for i in ix])\n"),
    "rows": ("rows", "rows = torch.stack([text[i] for i in ix])\n"),
    "last-of-each-row": ("last", "last = torch.stack([scores[i, lengths[i] - 1] for i in range(B)])\n"),
    "row-gather-chained": ("picked", "picked = torch.stack([scores[i][targets[i]] for i in torch.arange(B)])\n"),
    "row-gather-enumerate": ("picked", "picked = torch.stack([hidden[i, j] for i, j in enumerate(targets)])\n"),
    "row-gather-vectors": ("picked", "picked = torch.stack([hidden[i, j, 2 * j + 1] for i, j in enumerate(targets)])\n"),
}


def _run(code: str, name: str) -> object:
    namespace: dict[str, object] = {}
    exec(compile(code, "<case>", "exec"), namespace)
    return namespace[name]


@pytest.mark.parametrize("case", sorted(CASES))
def test_hint_computes_what_the_loop_computed(case: str) -> None:
    name, loop = CASES[case]
    report = analyze_source(SETUP + loop, CellRef("case.py"), rules=["elementwise-loop"])
    [finding] = report.findings
    assert finding.fix is not None and not finding.fixable and finding.fix.suggestion
    before = _run(SETUP + loop, name)
    # the suggestion replaces the loop: the accumulators start as the loop's code set them
    start = "".join(line + "\n" for line in loop.splitlines() if not line.startswith((" ", "for ")) and "[" not in line)
    suggestion = finding.fix.suggestion
    if "=" not in suggestion.split("[")[0]:  # an expression (a gather) replaces the stacked comprehension
        suggestion = f"{name} = {suggestion}"
    after = _run(SETUP + start + suggestion + "\n", name)
    if isinstance(before, torch.Tensor):
        assert torch.equal(torch.as_tensor(after).to(before.dtype), before)
    else:
        assert torch.allclose(torch.as_tensor(after, dtype=torch.float64), torch.as_tensor(before, dtype=torch.float64))


def test_columns_stacked_once_give_each_row() -> None:
    """`dict-as-list`'s hint for `torch.tensor([cols[c][i] for c in COLS], dtype=...)` read per
    row: the columns stacked once, transposed, and indexed by the row give the same tensors."""
    setup = "import torch\ncols = {'a': [1.7, 2.2, -3.9], 'b': [4.0, 5.5, 6.1], 'c': [0.5, 0.25, 9.0]}\nCOLS = ['c', 'a']\nout = []\n"
    loop = "for i in range(3):\n    out.append(torch.tensor([cols[k][i] for k in COLS], dtype=torch.long))\n"
    report = analyze_source(setup + loop, CellRef("case.py"), rules=["dict-as-list"])
    [finding] = report.findings
    assert finding.fix is not None and not finding.fixable and finding.fix.suggestion
    build, _, read = finding.fix.suggestion.split("\n")
    before = _run(setup + loop, "out")
    after = _run(setup + build.split("#")[0] + f"\nfor i in range(3):\n    out.append({read})\n", "out")
    assert len(before) == len(after) and all(torch.equal(a, b) and a.dtype == b.dtype for a, b in zip(before, after))
