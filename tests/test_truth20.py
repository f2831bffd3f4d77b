"""truth20: a notebook's per-batch shares, and per-iteration host times built as the typical one.

1. A notebook is profiled cell by cell: the cells before the loop (data, model, an optimizer's
   first creation, which imports torch's compiler stack: 0.15-0.6 s profiled) run whole, the
   training cell's loop only for its window (3 iterations: a few ms). The shares a dynamic
   finding is rated by ("X% of each iteration") were of `Profile.cpu_time_s`, the sum of every
   cell's profiled time: truth17's tabular notebook's `torch.tensor(rows[i:i + 128])` line, 50%
   of each profiled iteration (65% unprofiled), was 1.7% of that sum - no finding. They are now
   shares of the windowed cell's time (`Profile.window_time_s`).
2. A line's per-iteration times outside torch (`LineStat.iteration_host_s`, the "not paid every
   iteration" note) were raw per-iteration totals and the note's typical iteration their median,
   while the line's stated time is the sum of its parts' medians (truth19). Now each iteration
   is the sum of the same parts (self time less its torch work, collections out of both) and the
   note compares it with the stated typical time.
"""

from __future__ import annotations

import pytest
from fixtures.traces.build import TraceBuilder

from paef_jupyter.correlate import UNEVEN_NOTE, correlate
from paef_jupyter.dynamic.attribution import attribute, line_stats
from paef_jupyter.dynamic.build import merge_profiles
from paef_jupyter.dynamic.code_files import CodeFile
from paef_jupyter.dynamic.trace_events import parse_chrome_trace
from paef_jupyter.model import CellRef, LineStat, Profile, Report, Severity

CELL = CellRef("prog.py")
FILES = (CodeFile("/k/prog.py", CELL),)
_UNEVEN_START = UNEVEN_NOTE.split("{")[0]


# --- 2. per-iteration host times: the same parts as the typical iteration ----------------


def _two_helpers(extra10: tuple[float, float, float], extra11: tuple[float, float, float]) -> dict[int, LineStat]:
    """3 iterations: header (code line 3), call line 4 (4 us of its own) running helper lines 10
    and 11 (100 us each plus `extra..[i]` us in iteration i; 1 us of tracer between them)."""
    b = TraceBuilder()
    t = 0.0
    for i in range(3):
        durs = [100.0 + extra10[i], 100.0 + extra11[i]]
        b.line(0, 3, t, 2)
        call = 2 + sum(durs) + 1 + 2
        b.line(0, 4, t + 3, call)
        h = t + 5
        for line, dur in zip((10, 11), durs):
            b.line(0, line, h, dur)
            h += dur + 1
        t += 3 + call + 1
    result = attribute(parse_chrome_trace(b.trace()), header=(0, 3))
    return {s.line: s for s in line_stats(result, FILES)}


def _window(stats: dict[int, LineStat]) -> Profile:
    """The header and the call line (the helper's lines as if in a library: no block of them)."""
    lines = tuple(LineStat(**{**vars(stats[k]), "iterations": 3}) for k in (3, 4))
    return Profile(engine="torch", mode="window", window_ref=CELL, window_line=3, lines=lines,
                   cpu_time_s=sum(s.cpu_time_s for s in lines), wall_time_s=1.0, profiled_iterations=3,
                   cpu_wait_share=0.0)


def _call_line_finding(profile: Profile):
    found = [f for f in correlate(Report(findings=()), profile).findings if f.source == "dynamic" and f.line == 4]
    assert len(found) == 1, found
    return found[0]


def test_each_iterations_host_time_is_the_sum_of_the_same_parts():
    """Helper line 10 stalls 2 ms in iterations 0 and 1, line 11 1 ms in iterations 1 and 2: each
    line's median holds its stall, so the call line states 3.2 ms per iteration (its parts'
    medians); iteration 2 paid 1.2 ms of it. main's note compared iteration 2 with the median of
    the per-iteration totals (2.2 ms): no note, a medium."""
    stats = _two_helpers((2000, 2000, 0), (0, 1000, 1000))
    assert stats[4].cpu_time_s == pytest.approx(3 * 3204e-6)
    assert stats[4].iteration_host_s == pytest.approx((2204e-6, 3204e-6, 1204e-6))
    finding = _call_line_finding(_window(stats))
    assert finding.rule == "cpu-function"
    assert finding.severity is Severity.LOW
    assert any(n.startswith(_UNEVEN_START) and "3.2 ms" in n and "1 of 3" in n for n in finding.evidence.notes)


def test_a_cost_paid_every_iteration_keeps_its_medium():
    """Near miss: the same stalls on both helper lines in every iteration - paid every time."""
    stats = _two_helpers((2000, 2000, 2000), (1000, 1000, 1000))
    assert stats[4].iteration_host_s == pytest.approx((3204e-6,) * 3)
    finding = _call_line_finding(_window(stats))
    assert finding.severity is Severity.MEDIUM
    assert not any(n.startswith(_UNEVEN_START) for n in finding.evidence.notes)


def test_stalls_on_a_different_line_each_iteration_leave_the_typical_iteration_alone():
    """Near miss: a stall in one iteration per helper line is no line's median: the call line's
    typical time is its parts' (204 us), and no iteration is under half of it."""
    stats = _two_helpers((2000, 0, 0), (0, 0, 1000))
    assert stats[4].cpu_time_s == pytest.approx(3 * 204e-6)
    assert min(stats[4].iteration_host_s) >= 204e-6 - 1e-9


def test_torch_work_and_collections_are_out_of_each_iteration_as_of_the_typical():
    """Near miss (as on main): a 60 us op on helper line 10 every iteration and a 30 us
    collection in one are out of the per-iteration times as out of the stated time outside torch."""
    b = TraceBuilder()
    t = 0.0
    for i in range(3):
        b.line(0, 3, t, 2)
        b.line(0, 4, t + 3, 2 + 130 + 2)
        b.line(0, 10, t + 5, 130)
        b.host("aten::addmm", t + 10, 60)
        if i == 1:
            b.host("paef: garbage collection", t + 80, 30)
        t += 3 + 134 + 1
    result = attribute(parse_chrome_trace(b.trace()), header=(0, 3))
    stats = {s.line: s for s in line_stats(result, FILES)}
    host = (stats[4].cpu_time_s - stats[4].op_time_s) / 3
    assert host == pytest.approx(74e-6)
    # the collection is no line's time (truth18): iteration 1 paid 30 us less on both lines
    assert stats[4].iteration_host_s == pytest.approx((74e-6, 44e-6, 74e-6))
    assert stats[10].iteration_host_s == pytest.approx((70e-6, 40e-6, 70e-6))


# --- 1. a notebook's shares are of the windowed cell's iterations --------------------------

NB = CellRef("nb.ipynb", 3)
SETUP = CellRef("nb.ipynb", 2)


def _cells() -> list[Profile]:
    """Cell 2 run whole (an optimizer's first creation: 150 ms); cell 3's loop windowed, 3
    iterations of 2 ms, line 5 1 ms of each outside torch, line 7 the model (1 ms of torch)."""
    setup = Profile(engine="torch", mode="full", wall_time_s=0.16, cpu_time_s=0.150, base_time_s=0.150,
                    lines=(LineStat(ref=SETUP, line=2, cpu_time_s=0.150, op_time_s=0.150, hits=1),))
    n = 3
    loop = (LineStat(ref=NB, line=4, cpu_time_s=1e-6 * n, hits=n, iterations=n),
            LineStat(ref=NB, line=5, cpu_time_s=0.001 * n, op_time_s=0.00001 * n, hits=n, iterations=n,
                     iteration_host_s=(0.001, 0.001, 0.001)),
            LineStat(ref=NB, line=7, cpu_time_s=0.001 * n, op_time_s=0.001 * n, hits=n, iterations=n,
                     iteration_host_s=(0.0, 0.0, 0.0)))
    window = Profile(engine="torch", mode="window", window_ref=NB, window_line=4, lines=loop, wall_time_s=0.6,
                     cpu_time_s=0.002 * n, base_time_s=0.5, profiled_iterations=n, iterations=256,
                     cpu_wait_share=0.0)
    return [setup, window]


def test_a_notebooks_per_batch_line_is_a_share_of_the_windowed_cells_iterations():
    """main: 3 ms of the cells' summed 156 ms, 2% - no finding."""
    profile = merge_profiles(_cells(), cells=True)
    assert profile.window_time_s == pytest.approx(0.006)
    assert profile.cpu_time_s == pytest.approx(0.156)
    found = [f for f in correlate(Report(findings=()), profile).findings if f.source == "dynamic"]
    assert [(f.rule, f.ref.cell, f.line, f.severity) for f in found] == [("cpu-function", 3, 5, Severity.MEDIUM)]
    assert found[0].message.startswith("50% of each iteration")


def test_ranks_of_one_run_keep_their_summed_time():
    """Near miss: ranks merged (figures summed over ranks) name no window cell of their own."""
    a, b = _cells()[1], _cells()[1]
    assert merge_profiles([a, b]).window_time_s == 0.0


def test_one_cell_keeps_its_time():
    """Near miss: a script (one profile) is its window: shares unchanged."""
    window = _cells()[1]
    assert merge_profiles([window], cells=True) is window
    found = [f for f in correlate(Report(findings=()), window).findings if f.source == "dynamic"]
    assert [(f.line, f.message[:3]) for f in found] == [(5, "50%")]


# --- the profiler's recording cost, said where it is a sizable part of an iteration -------


def test_the_recording_cost_is_said_where_it_is_a_tenth_of_the_iteration():
    from paef_jupyter.dynamic import op_cost
    said = op_cost.note(3000, 0.4e-6, 0.009)  # 1.2 ms of 9 ms
    assert said is not None and "at least 1.2 ms of the 9 ms" in said and "(13%)" in said
    assert "at least 35% unprofiled" in said  # 0.3 / (1 - 0.133)


def test_a_small_recording_cost_is_not_said():
    """Near misses: 4% of the iteration (a tabular batch: 226 events), no measurement, no events."""
    from paef_jupyter.dynamic import op_cost
    assert op_cost.note(226, 0.35e-6, 0.002) is None
    assert op_cost.note(3000, None, 0.009) is None
    assert op_cost.note(0, 0.4e-6, 0.009) is None


def test_the_per_op_time_is_measured_in_this_process():
    import torch

    from paef_jupyter.dynamic import op_cost
    per = op_cost.per_op_s(torch)
    assert per is not None and 0 < per < 0.01
    assert op_cost.per_op_s(object()) is None  # no torch: nothing measured, nothing raised


# --- 3. under load: the waits left out of a line are left out of the span too -------------


def _many_helper_lines(busy: bool):
    """3 iterations: header (code line 3, 2 us), call line 4 running helper line 10 twenty
    times (10 us each), 200 us between them (on a busy box: waits that fell in the tracer's time)."""
    b = TraceBuilder()
    t = 0.0
    for _ in range(3):
        b.line(0, 3, t, 2)
        call = 2 + 20 * 10 + 19 * 200 + 2
        b.line(0, 4, t + 3, call)
        h = t + 5
        for _ in range(20):
            b.line(0, 10, h, 10)
            h += 210
        t += 3 + call + 1
    result = attribute(parse_chrome_trace(b.trace()), header=(0, 3), busy=busy)
    return {s.line: s for s in line_stats(result, FILES)}, result


def test_on_a_busy_box_the_waits_between_helper_lines_are_out_of_the_span():
    """A line running tens of thousands of helper lines lost its share under load: the waits
    between them were out of the line, in the span (test_a_cut_first_iteration_is_evidence_said_
    as_partial's "no finding": 307 of 1510 ms, 20%, for a line that was all of the iteration)."""
    stats, result = _many_helper_lines(busy=True)
    assert stats[4].cpu_time_s == pytest.approx(3 * 204e-6)
    assert result.span_ns == pytest.approx(3 * 206_000, abs=3)
    assert stats[4].cpu_time_s * 1e9 / result.span_ns > 0.95
    assert result.wait_gap_ns == 3 * 19 * 200_000


def test_on_a_quiet_box_a_long_gap_stays_the_lines_and_the_spans():
    """Near miss: not busy, a gap longer than the tracer's is the caller's work: in its line and in the span."""
    stats, result = _many_helper_lines(busy=False)
    assert stats[4].cpu_time_s == pytest.approx(3 * (204 + 19 * 200) * 1e-6)
    assert result.span_ns == pytest.approx(3 * (206_000 + 19 * 200_000), abs=3)
    assert result.wait_gap_ns == 0
