"""Red team 36 (blind) found automatic rewrites that break a program ordering two CUDA streams by
host waits: `rt36_pt_side_stream_prefetch` copies its batches under `torch.cuda.stream(side)` and
reads them on the default stream with no `wait_stream`; the blocking copy and the per-step
`loss.item()` are what order the streams. pageable-transfer made the copies `non_blocking=True`
from pinned memory, and host-sync replaced the `.item()` with a device sum (GPU-only, by reasoning).

The category: every rewrite that drops a host wait or a blocking copy is proved for one stream. Where
the program (earlier and later cells, reached modules) makes, enters or switches a stream or captures a
CUDA graph, those rewrites are offered for review, naming the call.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from redteam_units import REDTEAM, automatic_fixes, program_units, rule_findings, source_units

from paef_jupyter.model import CellRef, SourceUnit

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "rules"


def _review(found: list) -> bool:
    return any(f.fix is not None and f.fix.needs_review and "CUDA stream" in f.fix.review for f in found)


@pytest.mark.parametrize("rule", ["pageable-transfer", "host-sync"])
def test_red_team_36_side_stream_rewrites_are_left_to_review(rule: str) -> None:
    found = rule_findings(program_units(REDTEAM / "rt36_pt_side_stream_prefetch.py"), rule)
    assert found and not automatic_fixes(found) and _review(found)


# One automatic rewrite of each rule that drops a host wait or a blocking copy (single stream).
SINGLE_STREAM = [
    ("host-sync", "host-sync/accumulate.in.py"),
    ("pageable-transfer", "pageable-transfer/stream_lookalikes_near_misses.in.py"),
    ("cpu-then-move", "cpu-then-move/zeros.in.py"),
    ("list-to-tensor", "list-to-tensor/tensors.in.py"),
    ("redundant-tensor", "redundant-tensor/derived_chain.in.py"),
    ("ping-pong", "ping-pong/item_labels.in.py"),
]

STREAM_SPELLINGS = [
    "side = torch.cuda.Stream() if torch.cuda.is_available() else None\n",
    "from torch.cuda import Stream\nside = Stream() if torch.cuda.is_available() else None\n",
    "import torch.cuda as tc\nif tc.is_available():\n    tc.set_stream(tc.Stream())\n",
    "graph = torch.cuda.CUDAGraph() if torch.cuda.is_available() else None\n",
    "def prefetch(batch):\n    with torch.cuda.stream(torch.cuda.Stream()):\n        return [b.cuda() for b in batch]\n",
    # probe after the fix (not blind): the class taken as a value, a prefetcher object's attribute
    "make_stream = torch.cuda.Stream\nside = make_stream() if torch.cuda.is_available() else None\n",
    "class Prefetcher:\n    def __init__(self):\n        self.side = torch.cuda.Stream()\n",
]

# Streams named, never made, entered or switched: one stream, the rewrites stay automatic.
LOOKALIKES = [
    "import io\nlog_stream = io.StringIO()\n",
    "current = torch.cuda.current_stream() if torch.cuda.is_available() else None\n",
    "timer = torch.cuda.Event(enable_timing=True) if torch.cuda.is_available() else None\n",
    "def stream(rows):\n    yield from rows\n\nrows = list(stream([1, 2]))\n",
    "if torch.cuda.is_available():\n    torch.cuda.synchronize()\n",
]


@pytest.mark.parametrize("rule,fixture", SINGLE_STREAM)
def test_single_stream_rewrites_are_automatic(rule: str, fixture: str) -> None:
    assert automatic_fixes(rule_findings(source_units((FIXTURES / fixture).read_text()), rule))


@pytest.mark.parametrize("spelling", STREAM_SPELLINGS)
@pytest.mark.parametrize("rule,fixture", SINGLE_STREAM)
def test_a_stream_anywhere_in_the_program_leaves_them_to_review(rule: str, fixture: str, spelling: str) -> None:
    text = (FIXTURES / fixture).read_text() + "\n" + spelling
    found = rule_findings(source_units(text), rule)
    assert found and not automatic_fixes(found) and _review(found)


@pytest.mark.parametrize("lookalike", LOOKALIKES)
@pytest.mark.parametrize("rule,fixture", SINGLE_STREAM)
def test_stream_lookalikes_keep_them_automatic(rule: str, fixture: str, lookalike: str) -> None:
    text = (FIXTURES / fixture).read_text() + "\n" + lookalike
    assert automatic_fixes(rule_findings(source_units(text), rule))


def _notebook(*cells: str) -> list[SourceUnit]:
    return [SourceUnit(CellRef("nb.ipynb", i), text) for i, text in enumerate(cells)]


@pytest.mark.parametrize("rule,fixture", SINGLE_STREAM[:2])
def test_a_stream_in_an_earlier_or_later_cell_leaves_them_to_review(rule: str, fixture: str) -> None:
    program = (FIXTURES / fixture).read_text()
    stream = "import torch\nside = torch.cuda.Stream() if torch.cuda.is_available() else None\n"
    for cells in ((stream, program), (program, stream)):
        found = [f for f in rule_findings(_notebook(*cells), rule) if f.ref.cell == cells.index(program)]
        assert found and not automatic_fixes(found) and _review(found)
    assert automatic_fixes([f for f in rule_findings(_notebook(program, "import io\nlog = io.StringIO()\n"), rule)
                       if f.ref.cell == 0])


def test_rules_that_keep_waits_are_untouched() -> None:
    """graph-retention's `.detach()` and eval-without-no-grad's wrap drop no wait: a stream elsewhere
    leaves them as they were."""
    for rule, fixture in (("graph-retention", "graph-retention/accumulate.in.py"),
                          ("eval-without-no-grad", "eval-without-no-grad/accuracy.in.py")):
        text = (FIXTURES / fixture).read_text()
        assert automatic_fixes(rule_findings(source_units(text), rule))
        assert automatic_fixes(rule_findings(source_units(text + "\n" + STREAM_SPELLINGS[0]), rule))


# elementwise-loop, found by a probe after first contact (not blind): `rt36_el_calibrated_sigmoid`'s
# loops shared one loop variable and so got a hint; with their own variables (`rt36p_el_vectorised_rounding`)
# all three were vectorised and all three changed the printed digests (torch's whole-tensor CPU kernels
# of `sigmoid` and `pow(x, 1.5)` round otherwise than the one-element path).
def test_red_team_36_probe_vectorised_rounding_is_left_to_review() -> None:
    found = rule_findings(program_units(REDTEAM / "rt36p_el_vectorised_rounding.py"), "elementwise-loop")
    assert len(found) == 3 and not automatic_fixes(found)
    assert all(f.fix is not None and f.fix.needs_review and "round" in f.fix.review for f in found)


LOOP = '''import torch
x = torch.randn(32)
out = torch.zeros_like(x)
for i in range(len(x)):
    out[i] = {body}
'''


@pytest.mark.parametrize("body", [
    "torch.sigmoid(x[i])", "x[i].sigmoid()", "x[i] * torch.sigmoid(x[i])", "torch.exp2(x[i])", "torch.sinh(x[i])",
    "torch.cosh(x[i])", "torch.rsqrt(x[i].abs() + 1)", "x[i].abs() ** 1.5", "x[i].abs().pow(0.25)",
    "torch.pow(x[i].abs(), 1.5)", "x[i].abs() ** -0.5",
])
def test_inexact_whole_tensor_kernels_are_left_to_review(body: str) -> None:
    found = rule_findings(source_units(LOOP.format(body=body)), "elementwise-loop")
    assert found and not automatic_fixes(found) and any(f.fix is not None and f.fix.needs_review for f in found)


@pytest.mark.parametrize("body", [
    "x[i] * 2 + 1", "x[i] / 3 - x[i] // 2", "x[i] ** 2", "x[i] ** 3", "x[i].abs() ** 0.5", "x[i].pow(2)",
    "torch.pow(x[i], 2)", "(x[i].abs() + 1) ** -1", "(x[i].abs() + 1) ** -2", "torch.tanh(x[i])", "torch.exp(-x[i])",
    "torch.log1p(x[i].abs())", "torch.sqrt(x[i].abs())", "x[i].clamp(-1, 1).round()", "torch.erf(x[i]) + torch.sin(x[i])",
])
def test_exact_whole_tensor_kernels_stay_automatic(body: str) -> None:
    assert automatic_fixes(rule_findings(source_units(LOOP.format(body=body)), "elementwise-loop"))


# list-to-tensor, found by a probe after first contact (not blind, from rt36_lt_sentinel_device_mix,
# whose host sentinel sat in the list literal and so got a hint): appended host tensors beside device
# ones. `torch.tensor(vals)` copies each to the host; `torch.stack(vals)` raises on a GPU.
MIXED = '''import torch
device = "cuda" if torch.cuda.is_available() else "cpu"
model = torch.nn.Linear(4, 1).to(device)
x = torch.randn(8, 4, device=device)
for epoch in range(2):
    vals = []
    {first}
    for s in range(4):
        vals.append({second})
    print(torch.tensor(vals).sum())
'''


@pytest.mark.parametrize("first,second", [
    ("vals.append(torch.zeros(()))", "model(x[s : s + 2]).mean().detach()"),
    ("vals.append(torch.tensor(float('inf')))", "model(x[s : s + 2]).mean().detach()"),
    ("vals.append(torch.full((), 1.0))", "model(x[s : s + 2]).sum().detach()"),
])
def test_host_and_device_tensors_in_one_list_are_not_joined(first: str, second: str) -> None:
    found = rule_findings(source_units(MIXED.format(first=first, second=second)), "list-to-tensor")
    assert found and not automatic_fixes(found)


@pytest.mark.parametrize("first,second", [
    ("pass", "model(x[s : s + 2]).mean().detach()"),
    ("vals.append(model(x[:2]).mean().detach())", "model(x[s : s + 2]).mean().detach()"),
    ("vals.append(torch.zeros(()))", "torch.ones(()) * s"),
])
def test_one_device_lists_are_still_joined(first: str, second: str) -> None:
    assert automatic_fixes(rule_findings(source_units(MIXED.format(first=first, second=second)), "list-to-tensor"))
