"""truth16 (truth15 open item a): a cap that stops the recording inside the first profiled
iteration leaves evidence - the recorded part's ops and times on their lines. It is reported as
what it is (part of one iteration; no spread), instead of "0 profiled iterations" and no
finding. Seen on public MoE (pub32 p05): 512 per-sample expert calls made one iteration record
180k op events; the 8 MB cap stopped inside it, and with a larger recorder cap the trace went
over the reader's cap and was dropped whole.

Real profiles (`profile_path`) for the run; fake Kineto activities for the reader's cap.
"""

from __future__ import annotations


import pytest

from paef_jupyter.dynamic import collector
from paef_jupyter.dynamic.code_files import CodeFiles
from paef_jupyter.dynamic.line_tracer import LineTracer
from paef_jupyter.dynamic.trace_events import MARKER_PREFIX
from paef_jupyter.model import PARTIAL_ITERATION_START, Report

from dynamic_helpers import profile_window

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


def _partial_notes(report: Report) -> list[str]:
    return [n for n in report.profile.notes if n.startswith(PARTIAL_ITERATION_START)]


def test_a_cut_first_iteration_is_evidence_said_as_partial(tmp_path):
    report = profile_window(tmp_path, CUT_IN_FIRST.replace("SIZE", "150000"))
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
    report = profile_window(tmp_path, CUT_LATER.replace("SIZE", "0"))
    assert report.profile.profiled_iterations >= 1 and not report.profile.partial_iteration
    assert not _partial_notes(report)
    assert not any("recorded part" in f.message for f in report.findings)


def test_a_loop_under_every_cap_is_unchanged(tmp_path):
    """Near miss: nothing stopped the recording; whole iterations, no partial words."""
    report = profile_window(tmp_path, CUT_IN_FIRST.replace("SIZE", "300"))
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


HEADER = f"{MARKER_PREFIX}0|5"


def _acts(n_ops: int, iterations: int = 1, settling: int = 0) -> list[_Act]:
    """`settling` unrecorded ops (no line range), then `iterations` iterations, each opened by its
    header's range and holding a line range around `n_ops` ops."""
    acts = [_Act("aten::mul", 2 * i, 1) for i in range(settling)]
    t = 2 * settling + 10
    for _ in range(iterations):
        acts.append(_Act(HEADER, t, 2, "user_annotation"))
        acts.append(_Act(f"{MARKER_PREFIX}0|7", t + 3, 10 * n_ops + 5, "user_annotation"))
        acts += [_Act("aten::add", t + 5 + 10 * i, 4) for i in range(n_ops)]
        t += 10 * n_ops + 20
    return acts


@pytest.fixture
def small_cap(monkeypatch):
    monkeypatch.setattr(collector, "MAX_TRACE_EVENTS", 100)


def test_a_first_iteration_over_the_readers_cap_is_read_up_to_it(small_cap):
    trace, size, (note, whole) = collector._read(_Prof(_acts(500)), 7, False, HEADER, 0)
    assert "part of its first iteration" in note and whole == 0 and len(trace.events) <= 100
    cut = max(e.start_ns for e in trace.events)
    (line,) = [e for e in trace.events if e.name == f"{MARKER_PREFIX}0|7"]
    assert line.start_ns + line.dur_ns <= cut + 10  # the open line ends where reading stopped
    assert line.marker == (0, 7)


def test_whole_iterations_that_fit_are_kept_and_the_cut_one_dropped(small_cap):
    trace, _, (note, whole) = collector._read(_Prof(_acts(30, iterations=5)), 7, False, HEADER, 5)
    assert whole == 3 and "first 3 whole iteration(s)" in note
    assert sum(e.name == HEADER for e in trace.events) == 3
    end = max(e.start_ns + e.dur_ns for e in trace.events)
    fourth = sorted(a.timestamp() for a in _acts(30, iterations=5) if a.name() == HEADER)[3]
    assert end <= fourth


def test_the_unrecorded_settling_iterations_events_go_first(small_cap):
    """The settling iteration has no line ranges: its ops are dropped before any cut."""
    trace, _, (note, whole) = collector._read(_Prof(_acts(40, iterations=2, settling=300)), 7, False, HEADER, 2)
    assert whole == 2 and "left out" in note
    assert not any(e.name == "aten::mul" for e in trace.events)


def test_a_trace_over_the_cap_outside_a_window_is_still_refused(small_cap):
    """Near miss: no loop window (no iterations to keep whole): refused as before."""
    with pytest.raises(ValueError, match="over the 100 read"):
        collector._read(_Prof(_acts(500)), 7, False, None, 0)


def test_a_trace_under_the_cap_is_read_whole(small_cap):
    """Near miss: nothing is cut, nothing is said."""
    trace, size, cut = collector._read(_Prof(_acts(40)), 7, False, HEADER, 1)
    assert cut is None and len(trace.events) == 42


# -- the settling iteration --------------------------------------------------------------------


def _tracer(hits: list[float], loop_length: int | None = 100) -> LineTracer:
    tracer = LineTracer(CodeFiles(lambda name: None), None, warmup=None, window=None, start=lambda: None, stop=lambda: None,
                        make_range=lambda name: None)
    tracer.times.hits = hits
    tracer.loop_length, tracer.warmup, tracer.window = loop_length, 2, 3
    return tracer


def test_long_unprofiled_iterations_need_no_settling_iteration():
    assert not _tracer([0.0, 0.2, 0.4]).settles


def test_short_iterations_still_settle():
    """Near miss: first-use costs matter beside a 10 ms iteration."""
    assert _tracer([0.0, 0.01, 0.02]).settles


def test_unknown_iteration_time_still_settles():
    """Near miss: one hit only, no iteration time yet: as before."""
    assert _tracer([0.0]).settles and _tracer([]).settles


def test_a_loop_too_short_to_spare_one_never_settles():
    """Near miss (unchanged): the old rule."""
    assert not _tracer([0.0, 0.01, 0.02], loop_length=5).settles
