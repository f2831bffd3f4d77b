"""Closed-world gates of host-sync's device accumulation and graph-retention's `.detach()`:
every read of the changed total must be on a closed list of reads proved to give the same result
for both values; the first other read leaves the rewrite to review, named in its reason."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
import torch

from benchmarks.closed_world_totals_check import _READS
from paef_jupyter.api import analyze_source
from paef_jupyter.model import CellRef

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "rules"


def _fixes(text: str, rule: str, name: str = "prog.py") -> dict[int, str | None]:
    """line -> review reason ('' for an automatic rewrite) of each rewrite the rule offers."""
    report = analyze_source(text, CellRef(name), rules=[rule])
    return {f.line: f.fix.review or "" for f in report.findings if f.fix is not None and f.fix.edits}


_GRAPH_HEAD = """
import math
import torch
from torch import nn
torch.manual_seed(0)
model = nn.Linear(4, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt)
batches = [torch.randn(8, 4) for _ in range(3)]
total = 0.0
for x in batches:
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    total += loss
"""
_ACCUMULATION_LINE = 16

# Reads of the total after the loop, proved to give the same result with or without its graph.
_CLOSED = [
    'shown = f"{total:.4f}"',
    'shown = "%.3f (%d)" % (total, 3)',
    "value = total.item()",
    "value = float(total) / 3",
    "avg = total / 3\nvalue = avg.cpu().item()",
    "better = total < 1.0",
    "if total > 0.5:\n    pass",
    "finite = bool(torch.isfinite(total))",
    "sched.step(total)",
    "kind = isinstance(total, torch.Tensor)",
    "total = 0.0",
]
# ... and reads not on the list (some of which do differ: each names its line).
_OPEN = [
    "print(total)",
    'fmt = ""\nshown = f"{total:{fmt}}"',
    'shown = f"{total}"',
    "shown = str(total / 3)",
    "value = total.numpy()",
    "value = math.fsum([total])",
    "total.retain_grad()",
    "shown = total or None",
    "avg = total / 3\nrecord = {'avg': avg}\nprint(record)",
    "total",
]


@pytest.mark.parametrize("read", _CLOSED)
def test_graph_total_read_on_the_closed_list_stays_automatic(read: str) -> None:
    assert _fixes(_GRAPH_HEAD + read + "\n", "graph-retention") == {_ACCUMULATION_LINE: ""}


@pytest.mark.parametrize("read", _OPEN)
def test_graph_total_read_off_the_closed_list_is_left_to_review(read: str) -> None:
    review = _fixes(_GRAPH_HEAD + read + "\n", "graph-retention")[_ACCUMULATION_LINE]
    assert review, "an unproved read left the .detach() automatic"


def test_the_gate_names_the_first_unproved_read() -> None:
    review = _fixes(_GRAPH_HEAD + "ok = total.item()\nvalue = total.numpy()\n", "graph-retention")[_ACCUMULATION_LINE]
    assert "line 18 reads `total` (`value = total.numpy()`)" in review


def test_graph_list_read_through_a_comprehension_and_a_for() -> None:
    head = _GRAPH_HEAD.replace("total = 0.0", "history = []").replace("total += loss", "history.append(loss)")
    closed = "steps = [h.item() for h in history]\nfor h in history:\n    print(f'{h:.3f}')\n"
    assert _fixes(head + closed, "graph-retention") == {_ACCUMULATION_LINE: ""}
    review = _fixes(head + "for h in history:\n    print(h)\n", "graph-retention")[_ACCUMULATION_LINE]
    assert review


_HOST_HEAD = """
import torch
import torch.nn as nn
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(4, 1).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
data = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(4)]
total = 0.0
{before}
for x, y in data:
    loss = nn.functional.mse_loss(model(x.to(device)), y.to(device))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    total += loss.item()
    {inside}
"""


def _host(before: str, inside: str) -> tuple[str, int]:
    """The program, and the line of its accumulation."""
    text = _HOST_HEAD.format(before=before, inside=inside)
    return text, text.splitlines().index("    total += loss.item()") + 1


@pytest.mark.parametrize(("before", "inside"), [
    ("texts = (repr(total) for _ in iter(int, 1))", "print(next(texts))"),
    ("texts = map(lambda _: repr(total), iter(int, 1))", "print(next(texts))"),
])
def test_host_sum_read_by_code_that_may_run_mid_loop_is_left_to_review(before: str, inside: str) -> None:
    text, line = _host(before, inside)
    review = _fixes(text, "host-sync")[line]
    assert "reads `total`" in review or "lambda" in review


def test_host_sum_generator_names_its_line() -> None:
    text, line = _host("texts = (repr(total) for _ in iter(int, 1))", "print(next(texts))")
    review = _fixes(text, "host-sync")[line]
    assert "line 9 reads `total` in a generator expression" in review


@pytest.mark.parametrize("before", [
    "start = sum(total * k for k in (1, 2))",
    "start = list(repr(v) for v in (total, 1.0))",
    "own = (repr(total) for total in (1.0, 2.0))",
    "scale = lambda total: total * 2",
    "class Summary:\n    shown = repr(total)",
])
def test_host_sum_read_in_place_stays_automatic(before: str) -> None:
    text, line = _host(before, "pass")
    assert _fixes(text, "host-sync") == {line: ""}


@pytest.mark.parametrize("probe", sorted((ROOT / "benchmarks" / "redteam").glob("rtcwa_*.py")), ids=lambda p: p.name)
def test_probes_get_no_automatic_rewrite_of_these_rules(probe: Path) -> None:
    rule = "graph-retention" if "_gr_" in probe.name else "host-sync"
    fixes = _fixes(probe.read_text(), rule, probe.name)
    assert fixes and all(fixes.values()), fixes


# --- the closed lists, on this torch -----------------------------------------------------------

_SAME_FOR_BOTH = ['f"{x:.4f}"', 'f"{x:.3e}"', 'f"{x:>10.2f}"', '"%.3f" % x', '"%.3f %d" % (x, 1)',
                  'format(x, ".2f")', "float(x)", "x < 1.0 in an if", "x > y (two totals) in an if"]


@pytest.mark.parametrize("read", _SAME_FOR_BOTH)
def test_closed_reads_give_the_same_result_on_this_torch(read: str) -> None:
    """Each entry of the lists, run on a float vs its float64 0-d device sum, and on a total with
    its graph vs detached (0-d: the totals the rules rewrite)."""
    f = _READS[read]
    total = 0.1 + 0.2 + 0.7
    device_sum = torch.tensor(0.1, dtype=torch.float64) + 0.2 + 0.7
    assert f(total) == f(device_sum)
    w = torch.tensor(2.0, requires_grad=True)
    kept = w * 0.5 + w * 0.25
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # `float()` of a tensor requiring grad warns (stderr only)
        assert f(kept) == f(kept.detach())


def test_str_and_repr_differ_and_are_not_closed() -> None:
    assert str(1.0) != str(torch.tensor(1.0, dtype=torch.float64))
    w = torch.tensor(2.0, requires_grad=True)
    assert repr(w * 1.0) != repr((w * 1.0).detach())
    assert "str(x)" not in _SAME_FOR_BOTH and 'f"{x}"' not in _SAME_FOR_BOTH

