"""truth16 (truth15 open item a): a cap that stops the recording inside the first profiled
iteration leaves evidence - the recorded part's ops and times on their lines. It is reported as
what it is (part of one iteration; no spread), instead of "0 profiled iterations" and no
finding. Seen on public MoE (pub32 p05): 512 per-sample expert calls made one iteration record
180k op events; the 8 MB cap stopped inside it, and with a larger recorder cap the trace went
over the reader's cap and was dropped whole.

Real profiles (`profile_path`) for the run; fake Kineto activities for the reader's cap.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from paef_jupyter.api import profile_path
from paef_jupyter.dynamic import collector
from paef_jupyter.dynamic.trace_events import MARKER_PREFIX
from paef_jupyter.model import PARTIAL_ITERATION_START, Report

pytestmark = pytest.mark.usefixtures("one_torch_thread")

# One iteration runs 300k traced lines (a comprehension calling a helper): over every recorder
# cap before the first recorded iteration ends.
CUT_IN_FIRST = """import torch

w = torch.randn(8, 8)


def feature(i):
    return (i * 7) % 13


for step in range(5):
    feats = [feature(i) for i in range(SIZE)]
    y = w @ w
"""

# The same work, small first iterations: whole ones are recorded before the cap.
CUT_LATER = CUT_IN_FIRST.replace("for step in range(5):\n    feats = [feature(i) for i in range(SIZE)]",
                                 "for n in [2000] * 4 + [150000] * 8:\n    feats = [feature(i) for i in range(n)]")


def _profile(tmp_path: Path, text: str) -> Report:
    path = tmp_path / "prog.py"
    path.write_text(text)
    report = profile_path(str(path))
    assert not report.errors and report.profile is not None and report.profile.mode == "window"
    return report


def _partial_notes(report: Report) -> list[str]:
    return [n for n in report.profile.notes if n.startswith(PARTIAL_ITERATION_START)]


def test_a_cut_first_iteration_is_evidence_said_as_partial(tmp_path):
    report = _profile(tmp_path, CUT_IN_FIRST.replace("SIZE", "150000"))
    profile = report.profile
    assert profile.profiled_iterations == 0 and profile.partial_iteration and _partial_notes(report)
    assert not any("profiled iterations: median" in n for n in profile.notes)  # no spread claimed
    found = [f for f in report.findings if f.rule == "cpu-function" and f.line <= 7 <= f.end_line]
    assert found, [(f.rule, f.line) for f in report.findings]
    (f,) = found
    assert f.evidence.measurable and "of the recorded part of the first iteration" in f.message
    assert any(n.startswith("measured on part of one iteration") for n in f.evidence.notes)
    assert not any("per iteration" in n for n in f.evidence.notes)


def test_a_cap_in_a_later_iteration_keeps_whole_iterations(tmp_path):
    """Near miss: whole iterations were recorded before the cap: no partial note, the usual words."""
    report = _profile(tmp_path, CUT_LATER.replace("SIZE", "0"))
    assert report.profile.profiled_iterations >= 1 and not report.profile.partial_iteration
    assert not _partial_notes(report)
    assert not any("recorded part" in f.message for f in report.findings)


def test_a_loop_under_every_cap_is_unchanged(tmp_path):
    """Near miss: nothing stopped the recording; whole iterations, no partial words."""
    report = _profile(tmp_path, CUT_IN_FIRST.replace("SIZE", "300"))
    assert report.profile.profiled_iterations >= 1 and not _partial_notes(report)
    assert not any("recorded part" in f.message or
                   any(n.startswith("measured on part") for n in (f.evidence.notes if f.evidence else ()))
                   for f in report.findings)


# -- the reader's cap -------------------------------------------------------------------------


class _Act:
    """The fields `from_activities` reads of a Kineto activity."""

    def __init__(self, name: str, start: int, dur: int, cat: str = "cpu_op"):
        self._name, self._start, self._dur, self._cat = name, start, dur, cat

    def name(self): return self._name
    def type(self): return self._cat
    def timestamp(self): return self._start
    def duration(self): return self._dur
    def resource_id(self): return 7
    def device_id(self): return 1
    def linked_correlation_id(self): return 0
    def correlation_id(self): return 0
    def metadata_json(self): return ""


class _Prof:
    def __init__(self, acts):
        results = type("R", (), {"trace_activities": lambda self: list(acts)})()
        self.profiler = type("P", (), {"kineto_results": results})()


def _acts(n_ops: int) -> list[_Act]:
    """A line range around the whole recording (a comprehension's line) and `n_ops` ops in it."""
    line = _Act(f"{MARKER_PREFIX}0|7", 0, 10 * n_ops + 10, "user_annotation")
    return [line] + [_Act("aten::add", 10 * i + 5, 4) for i in range(n_ops)]


@pytest.fixture
def small_cap(monkeypatch):
    monkeypatch.setattr(collector, "MAX_TRACE_EVENTS", 100)


def test_a_first_iteration_over_the_readers_cap_is_read_up_to_it(small_cap):
    trace, size, note = collector._read(_Prof(_acts(500)), 7, export=False, cut_ok=True)
    assert note and "read up to" in note and len(trace.events) <= 100
    cut = max(e.start_ns for e in trace.events)
    (line,) = [e for e in trace.events if e.name.startswith(MARKER_PREFIX)]
    assert line.start_ns + line.dur_ns <= cut + 10  # the open line ends where reading stopped
    assert line.marker == (0, 7)


def test_a_trace_over_the_cap_with_whole_iterations_is_still_refused(small_cap):
    """Near miss: whole iterations were recorded; a cut would leave per-iteration figures wrong."""
    with pytest.raises(ValueError, match="over the 100 read"):
        collector._read(_Prof(_acts(500)), 7, export=False, cut_ok=False)


def test_a_trace_under_the_cap_is_read_whole(small_cap):
    """Near miss: nothing is cut, nothing is said."""
    trace, size, note = collector._read(_Prof(_acts(50)), 7, export=False, cut_ok=True)
    assert note is None and len(trace.events) == 51
    assert max(e.dur_ns for e in trace.events) == 510
