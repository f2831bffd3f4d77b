"""truth16 (truth15 open item c, the lead's decision): on a CPU profile a GPU cost the run could
not measure (a predicted device sync, a host-device copy) is at most `medium`, says so in its
card, and ranks after every measured finding; `paef scan` keeps the rule's severity, and a GPU
profile, a measured finding and a static finding whose cost is not a device's keep theirs.
Seen on public pix2pix (pub32 p02), mc-dropout (pub33 p03), FixMatch (pub33 p02): a per-step
`loss.item()` read `high` at the top of a CPU profile with nothing measured about it.

Real profiles of small programs on this CPU build (`profile_path`, what `paef profile` runs).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from paef_jupyter.api import analyze_path
from paef_jupyter.correlate import CAPPED_NOTE, PREDICTION_LEAD, correlate
from paef_jupyter.model import Report, Severity

from dynamic_helpers import profile_window

pytestmark = pytest.mark.usefixtures("one_torch_thread")

# A measured host cost (a pure-Python helper per step), a per-step `.item()` (a predicted sync
# the rule rates high), an eval read-back (rated medium) and a graph chained across steps (a
# static high whose cost is not a device's: `retain_graph=True` keeps each step's `exp` output, 64 KiB,
# so the memory the window measures keeps it high; a loss kept after a plain `backward()` saves nothing
# and is low since truth68).
PROGRAM = """import torch
import torch.nn as nn

device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(32, 1).to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
x = torch.randn(64, 32, device=device)


def slow_python(n):
    s = 0
    for i in range(n):
        s += i * i
    return s


total = 0.0
chained = 0
for step in range(30):
    loss = model(x).expand(64, 256).exp().mean()
    opt.zero_grad()
    loss.backward(retain_graph=True)
    opt.step()
    total += loss.item()
    chained += loss
    slow_python(20000)
model.eval()
for step in range(3):
    val = model(x).mean()
    print(val.item())
"""
ITEM_LINE = 24


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> Report:
    return profile_window(tmp_path_factory.mktemp("pred"), PROGRAM)


@pytest.fixture(scope="module")
def scanned(tmp_path_factory) -> Report:
    path = tmp_path_factory.mktemp("scan") / "prog.py"
    path.write_text(PROGRAM)
    return analyze_path(str(path))


def _at(report: Report, rule: str, line: int):
    return [f for f in report.findings if f.rule == rule and f.line == line]


def test_a_predicted_high_sync_is_medium_on_a_cpu_profile_and_says_why(report, scanned):
    (static,) = _at(scanned, "host-sync", ITEM_LINE)
    assert static.severity is Severity.HIGH  # the premise: the rule rates it high
    (sync,) = _at(report, "host-sync", ITEM_LINE)
    assert sync.severity is Severity.MEDIUM and sync.message.startswith(PREDICTION_LEAD)
    assert CAPPED_NOTE.format(severity="high") in sync.evidence.notes
    assert not sync.evidence.measurable


def test_every_measured_finding_ranks_before_the_capped_prediction(report):
    order = list(report.findings)
    (sync,) = _at(report, "host-sync", ITEM_LINE)
    measured = [f for f in order if f.evidence is not None and f.evidence.measurable]
    assert any(f.rule == "cpu-function" for f in measured)
    assert all(order.index(f) < order.index(sync) for f in measured)


def test_paef_scan_keeps_the_rules_severity(scanned):
    """Near miss: the static report has no profile; nothing is capped there."""
    assert all(CAPPED_NOTE.split(":")[0] not in " ".join((f.evidence.notes if f.evidence else ()))
               for f in scanned.findings)
    assert any(f.severity is Severity.HIGH for f in scanned.findings if f.rule == "host-sync")


def test_the_same_findings_on_a_gpu_profile_keep_high(scanned, report):
    """Near miss: on a GPU run the sync is measurable; its severity stays the rule's."""
    on_gpu = correlate(scanned, replace(report.profile, device="cuda"))
    (sync,) = _at(on_gpu, "host-sync", ITEM_LINE)
    assert sync.severity is Severity.HIGH
    assert not any(n.startswith("at most medium") for n in sync.evidence.notes)


def test_a_high_finding_whose_cost_is_not_a_devices_stays_high_on_a_cpu(report, scanned):
    """Near miss: the chained graph (`chained += loss`) costs memory on any device."""
    static = [f for f in scanned.findings if f.severity is Severity.HIGH and f.rule != "host-sync"]
    assert static, "the premise: a high finding of another rule"
    for f in static:
        (same,) = _at(report, f.rule, f.line)
        assert same.severity is Severity.HIGH
        assert not any(n.startswith("at most medium") for n in (same.evidence.notes if same.evidence else ()))


def test_a_medium_prediction_is_unchanged_and_carries_no_cap_note(report):
    """Near miss: a prediction the rule already rates medium or low is left as it is."""
    for f in report.findings:
        if f.message.startswith(PREDICTION_LEAD) and f.line != ITEM_LINE:
            assert not any(n.startswith("at most medium") for n in f.evidence.notes)


def test_correlating_again_keeps_one_cap_note(report):
    """Near miss: Re-run and compare correlates a correlated report: one note, still medium."""
    again = correlate(Report(findings=report.findings, sources=report.sources), report.profile)
    (sync,) = _at(again, "host-sync", ITEM_LINE)
    assert sync.severity is Severity.MEDIUM
    assert sum(n.startswith("at most medium") for n in sync.evidence.notes) == 1
